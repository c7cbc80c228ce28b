#include <string>
#include <vector>
#include <map>
#include <cstdio>
namespace outer { namespace inner {
template <typename T, typename U> struct Holder {
  std::map<T, std::vector<U>> m;
  void put(const T &k, const U &v) { m[k].push_back(v); }
  size_t count(const T &k) const { auto it = m.find(k); return it == m.end() ? 0 : it->second.size(); }
};
}}
struct Shape { virtual ~Shape() {} virtual double area() const = 0; };
struct Sq : Shape { double s; Sq(double x) : s(x) {} double area() const override { return s*s; } };
std::string join(const std::string &a, const std::string &b) { return a + "/" + b; }
int main() {
  outer::inner::Holder<std::string, int> h;
  h.put("a", 1); h.put("b", 2); h.put("a", 3);
  Sq q(2.0); Shape *s = &q;
  std::string j = join("x", "y");
  printf("%zu %f %s\n", h.count("a"), s->area(), j.c_str());
  return 0;
}
