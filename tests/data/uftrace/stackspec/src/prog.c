/* arguments 7 and 8 are passed on the stack (x86-64: six in registers) */
int stack_args(int a, int b, int c, int d, int e, int f, int g, int h)
{
    return a + b + c + d + e + f + g + h;
}

int other_forms(int a, long b)
{
    return a + (int)b;
}

int main(void)
{
    return stack_args(1, 2, 3, 4, 5, 6, 7, 8) + other_forms(3, 4) == 43 ? 0 : 1;
}
