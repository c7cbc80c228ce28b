// exceptions.cpp - a small C++ program for the Intel PT real-execution
// corpus: exceptions thrown through several frames (the unwinder walks the
// stack with indirect calls and jumps), caught, rethrown, with destructors
// running on the way and a virtual call per level. Prints one line.
#include <cstdio>
#include <stdexcept>

namespace {

int destroyed = 0;

struct Guard {
    ~Guard() { destroyed++; }
};

struct Shape {
    virtual ~Shape() {}
    virtual int sides() const = 0;
};
struct Triangle : Shape {
    int sides() const { return 3; }
};
struct Square : Shape {
    int sides() const { return 4; }
};

int descend(const Shape &s, int depth)
{
    Guard g;
    if (depth == 0) {
        if (s.sides() == 3)
            throw std::runtime_error("triangle");
        throw s.sides();
    }
    return descend(s, depth - 1) + 1;
}

int attempt(const Shape &s, int depth)
{
    try {
        return descend(s, depth);
    } catch (const std::runtime_error &e) {
        try {
            throw;
        } catch (const std::exception &again) {
            return again.what()[0];
        }
    } catch (int sides) {
        return -sides;
    }
}

} // namespace

int main()
{
    Triangle t;
    Square q;
    long sum = 0;
    for (int i = 0; i < 6; i++)
        sum += attempt(i % 2 ? static_cast<const Shape &>(q) : t, i);
    std::printf("sum %ld, destroyed %d\n", sum, destroyed);
    return 0;
}
