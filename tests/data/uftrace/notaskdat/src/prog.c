/* run by a shell script recorded with uftrace record --force */
int twice(int n)
{
    return n * 2;
}

int main(void)
{
    return twice(21) == 42 ? 0 : 1;
}
