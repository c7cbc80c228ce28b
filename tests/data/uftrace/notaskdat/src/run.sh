#!/bin/sh
./prog; ./prog
