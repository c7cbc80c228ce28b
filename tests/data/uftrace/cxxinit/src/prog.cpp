/* static initialisers: _GLOBAL__sub_I_<first function's mangled name> */
namespace ABC {
int foo(int x) { return x + 1; }
}
struct Init {
    int v;
    Init() : v(ABC::foo(41)) {}
};
static Init init;
int bar(int x);
int main() { return ABC::foo(init.v) + bar(0) == 43 + 5 ? 0 : 1; }
