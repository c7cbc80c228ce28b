#include <string>
#include <vector>
#include <map>
#include <memory>
#include <functional>
#include <iostream>
#include <sstream>
#include <algorithm>
#include <thread>
#include <atomic>
#include <tuple>
#include <optional>
#include <variant>
#include <cstdio>

namespace ns {
struct Shape { virtual ~Shape() {} virtual int area(int, int) const = 0; };
struct Rect : Shape { int area(int a, int b) const override { return a * b; } };
template <typename T, int N> struct Arr {
    T v[N];
    T &operator[](int i) { return v[i]; }
    const T &operator[](int i) const { return v[i]; }
    template <typename U> U conv() const { return U(v[0]); }
    explicit operator bool() const { return N > 0; }
    operator int() const { return N; }
};
struct Vec { int x, y;
    Vec operator+(const Vec &o) const { return {x + o.x, y + o.y}; }
    Vec &operator+=(const Vec &o) { x += o.x; y += o.y; return *this; }
    bool operator==(const Vec &o) const { return x == o.x && y == o.y; }
    bool operator<(const Vec &o) const { return x < o.x; }
    int operator()(int a) const { return a + x; }
    Vec operator-() const { return {-x, -y}; }
    void *operator new(std::size_t n) { return ::operator new(n); }
    void operator delete(void *p) { ::operator delete(p); }
    Vec &operator=(const Vec &) = default;
    int operator->*(int Vec::*m) const { return this->*m; }
};
std::ostream &operator<<(std::ostream &os, const Vec &v) { return os << v.x << "," << v.y; }
inline namespace v1 { int inl(int a) { return a + 1; } }
namespace { int anon(int a) { return a * 3; } }
static int stat_fn(int a) { return a - 1; }
template <typename... Ts> int count(Ts... ts) { return sizeof...(ts); }
template <typename F> int apply(F f, int a) { return f(a); }
struct Outer { struct Inner { int get() const { return 7; } ~Inner() {} }; Inner in; };
int with_local(int a) {
    struct Local { int twice(int b) { return 2 * b; } };
    static std::string guard_me = "hi";
    Local l;
    auto lam = [a](int b) { return a + b; };
    auto lam2 = [&](auto c) { return c * a; };
    return l.twice(a) + lam(1) + lam2(2) + (int)guard_me.size();
}
thread_local int tls_var = 5;
int use_tls() { return tls_var++; }
template <class T> struct Base { virtual T get() { return T(); } virtual ~Base() = default; };
struct Derived : Base<int>, Shape { int get() override { return 1; } int area(int a, int b) const override { return a + b; } };
struct Virt : virtual Base<long> { long get() override { return 2; } };
}
struct Counter { int n = 0; void bump(int k) { n += k; } ~Counter() { n = 0; } };
extern "C" int cfun(int a) { return a; }
__attribute__((noinline, cold)) int coldpath(int a) { if (a > 1000) throw std::runtime_error("x"); return a; }
__attribute__((noinline)) static int constp(int a, int b) { return a * b + 1; }
int main(int argc, char **argv) {
    ns::Rect r; ns::Derived dd; ns::Virt vv;
    ns::Arr<int, 3> arr{{1, 2, 3}}; arr[0] = 4;
    ns::Vec a{1, 2}, b{3, 4}; a += b; ns::Vec c = a + b; bool e = a == b; bool lt = a < b; c = -c;
    ns::Vec *hp = new ns::Vec{5, 6}; delete hp;
    std::ostringstream os; os << c;
    std::vector<std::string> vs{"a", "bb"}; std::sort(vs.begin(), vs.end());
    std::map<std::string, int> m; m["x"] = 1;
    auto sp = std::make_shared<ns::Rect>(); auto up = std::make_unique<Counter>(); up->bump(3);
    std::function<int(int)> fn = [](int x) { return x + 1; };
    std::optional<int> opt = 3; std::variant<int, std::string> var = std::string("s");
    std::tuple<int, double> tp{1, 2.0};
    std::atomic<int> at{0}; at++;
    std::thread t([&] { at += ns::inl(1); }); t.join();
    int s = r.area(2, 3) + dd.get() + (int)vv.get() + arr.conv<int>() + (int)arr + (bool)arr + e + lt +
            ns::count(1, 2.0, 'c') + ns::apply([](int z) { return z * 2; }, 3) + ns::with_local(argc) +
            ns::use_tls() + ns::Outer().in.get() + fn(1) + *opt + (int)std::get<1>(var).size() +
            std::get<0>(tp) + ns::anon(1) + ns::stat_fn(2) + cfun(1) + coldpath(argc) + constp(argc, 3) +
            c(1) + (c->*(&ns::Vec::x)) + (int)m.size() + (int)vs.size() + (int)os.str().size();
    printf("%d %s\n", s, argv[0]);
    return 0;
}
