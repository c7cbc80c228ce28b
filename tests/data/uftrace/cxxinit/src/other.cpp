int foo(int x) { return x * 2; }
struct Twice {
    int v;
    Twice() : v(foo(2)) {}
};
static Twice twice;
int bar(int x) { return x + twice.v + 1; }
