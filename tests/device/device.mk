# The device programs (included by the Makefile): every header's decoders
# on emulated Cortex-M boards (README.md, "On a microcontroller"). Targets:
#
#   build/device/HDR-CPU-OPT.elf       the program tests/device/HDR.c for CPU
#                                      m0 (board microbit) or m4 (mps2-an386)
#                                      at OPT Os or O2; HDR tracedec: all
#                                      formats in one image (tracedec.h)
#   build/device/lib/HDR-CPU-OPT.o     the header's implementation alone (the
#                                      compile matrix's TU, tests/matrix/tu.c),
#                                      with its .su and .ci (call graph with
#                                      stack usage) beside it; -nostrings.o:
#                                      the same with TDEC_NO_STRINGS
#   build/device/sizeof/FMT-CPU.o      sizeof of the public structs (nm -S)
#   build/device/host/HDR              the same program on the host
#
#   make device-check    the device tests alone (tests/device/device.sh)
#   make device-table    measures and rewrites README's size and stack table

DEV       := $(B)/device
DEV_HDRS  := $(FORMATS) tracedec
DEV_CPUS  := m0 m4
DEV_OPTS  := Os O2
ARM_CC    := arm-none-eabi-gcc -mthumb -ffreestanding -std=c99
dev_cpu.m0 := -mcpu=cortex-m0
dev_cpu.m4 := -mcpu=cortex-m4
dev_ld.m0  := microbit
dev_ld.m4  := an386

# tracedec.h's one image is for the Cortex-M4 board only.
DEV_ELFS  := $(foreach h,$(DEV_HDRS),$(foreach c,$(if $(filter tracedec,$(h)),m4,$(DEV_CPUS)),\
               $(foreach o,$(DEV_OPTS),$(DEV)/$(h)-$(c)-$(o).elf)))
DEV_LIBS  := $(patsubst $(DEV)/%.elf,$(DEV)/lib/%.o,$(DEV_ELFS)) \
             $(patsubst $(DEV)/%.elf,$(DEV)/lib/%-nostrings.o,$(DEV_ELFS))
DEV_HOSTS := $(patsubst %,$(DEV)/host/%,$(DEV_HDRS))
DEV_ALL   := $(DEV_ELFS) $(DEV_LIBS) $(DEV_HOSTS) \
             $(foreach c,$(DEV_CPUS),$(patsubst %,$(DEV)/sizeof/%-$(c).o,$(FORMATS)))

# The parts of a stem HDR-CPU-OPT[-nostrings], and the header's file and
# implementation macro.
dev_w     = $(word $(1),$(subst -, ,$*))
dev_file  = $(if $(filter tracedec,$(1)),tracedec.h,single/tdec_$(1).h)
dev_impl  = $(if $(filter tracedec,$(1)),-DTRACEDEC_IMPLEMENTATION,-DTDEC_$(call upper,$(1))_IMPLEMENTATION)
dev_arm   = $(ARM_CC) $(dev_cpu.$(1)) -$(2) $(WARN) -I.
# A program's sources and the traces it assembles in (DEV_TRACE lines);
# tracedec.c includes the others.
dev_srcs   = tests/device/$(1).c $(if $(filter tracedec,$(1)),$(patsubst %,tests/device/%.c,$(FORMATS)))
dev_traces = $(shell sed -n 's/^DEV_TRACE[_A-Z]*.[a-z0-9_]*, *"\([^"]*\)".*/\1/p' $(call dev_srcs,$(1)))
DEV_DEPS  := tests/device/device.h tests/device/platform.h $(HEADERS)

$(DEV)/lib/%.o: $(MX_DEPS)
	@mkdir -p $(@D)
	$(call dev_arm,$(call dev_w,2),$(call dev_w,3)) -fstack-usage -fcallgraph-info=su -DMX_HEADER='"$(call dev_file,$(call dev_w,1))"' \
	    $(call dev_impl,$(call dev_w,1)) $(if $(call dev_w,4),-DTDEC_NO_STRINGS) -DMX_HEADER_ONLY -c $(MX_TU) -o $@

$(DEV)/start-%.o: tests/device/start.c tests/device/platform.h
	@mkdir -p $(@D)
	$(call dev_arm,$(call dev_w,1),$(call dev_w,2)) -c $< -o $@

define dev_program
$(DEV)/prog/$(1)-%.o: $(call dev_srcs,$(1)) $(DEV_DEPS) $(call dev_traces,$(1))
	@mkdir -p $$(@D)
	$$(call dev_arm,$$(call dev_w,1),$$(call dev_w,2)) -c $$< -o $$@
$(DEV)/$(1)-%.elf: $(DEV)/prog/$(1)-%.o $(DEV)/lib/$(1)-%.o $(DEV)/start-%.o tests/device/common.ld \
                   tests/device/microbit.ld tests/device/an386.ld
	$$(ARM_CC) $$(dev_cpu.$$(call dev_w,1)) -nostdlib -Ltests/device -T tests/device/$$(dev_ld.$$(call dev_w,1)).ld \
	    -o $$@ $$(filter %.o,$$^) -lgcc
$(DEV)/host/$(1): $(call dev_srcs,$(1)) tests/device/host.c $(DEV)/host/$(1)-lib.o $(DEV_DEPS) $(call dev_traces,$(1))
	$$(CC) $$(ALL_CFLAGS) -o $$@ $$< tests/device/host.c $(DEV)/host/$(1)-lib.o
endef
$(foreach h,$(DEV_HDRS),$(eval $(call dev_program,$(h))))

$(DEV)/host/%-lib.o: $(MX_DEPS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -DMX_HEADER='"$(call dev_file,$*)"' $(call dev_impl,$*) -DMX_HEADER_ONLY -c $(MX_TU) -o $@

# sizeof of the header's public decoder, state and item structs, and of
# those a caller keeps beside them (an argument spec, an image and its
# sections, a prepared description): one array of that size each, read
# back with arm-none-eabi-nm -S.
$(DEV)/sizeof/%.c: $(HEADERS) tests/device/device.mk
	@mkdir -p $(@D)
	{ echo '#include "$(call dev_file,$*)"'; \
	  sed -n 's/^typedef struct \(tdec_[a-z0-9]*_[a-z0-9_]*\(decoder\|state\|item\|last_ip\|time\|tcal\|json\|argspec\|image\|section\|desc\)\) {.*/char sizeof_\1[sizeof(\1)];/p' \
	      single/tdec_$*.h; } > $@
$(DEV)/sizeof/%-m0.o: $(DEV)/sizeof/%.c
	$(call dev_arm,m0,Os) -fno-common -c $< -o $@
$(DEV)/sizeof/%-m4.o: $(DEV)/sizeof/%.c
	$(call dev_arm,m4,Os) -fno-common -c $< -o $@

.PHONY: device-images device-check device-table
device-images: $(DEV_ALL)
device-check:
	@MAKE='$(MAKE)' sh tests/run.sh device
device-table:
	@MAKE='$(MAKE)' sh tests/device/device.sh --table

.PRECIOUS: $(DEV)/prog/%.o $(DEV)/start-%.o $(DEV)/sizeof/%.c

# The xtrace capture its program assembles in (tests/gen/xtrace_gen).
$(DEV)/data/xtrace.1700000000.4242.hint9.xinsndata.bin $(DEV)/data/xtrace.1700000000.4242.hint9.xsnapshot.bin &: \
        $(B)/gen/xtrace_gen
	@mkdir -p $(@D)
	$(B)/gen/xtrace_gen $(@D) > /dev/null
