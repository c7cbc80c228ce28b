/* enum arguments and return values, recorded with DWARF auto-args (-a) */
enum color { RED, GREEN = 5, BLUE };
enum flag { FLAG_A = 1, FLAG_B = 2, FLAG_C = 4 };

enum color next_color(enum color c)
{
    return c == RED ? GREEN : c == GREEN ? BLUE : (enum color)42;
}

int flag_bits(enum flag f, int n)
{
    return (int)f + n;
}

int main(void)
{
    enum color c = next_color(RED);
    c = next_color(c);
    c = next_color(c);
    return flag_bits(FLAG_A | FLAG_C, 0) + flag_bits(FLAG_B, 1) == 8 && c == 42 ? 0 : 1;
}
