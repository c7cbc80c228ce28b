/* a long double argument and return value (f80 on x86-64) */
long double half(long double x)
{
    return x / 2;
}

int after(int n)
{
    return n + 1;
}

int main(void)
{
    return half(3.0L) == 1.5L ? after(0) - 1 : 1;
}
