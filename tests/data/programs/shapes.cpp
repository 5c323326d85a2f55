// Compiled by the context tests (g++ -g): a method of a namespaced class and two instances of a
// function template, whose names must come back demangled.
#include <cstdio>

namespace geometry {

class Rectangle
{
public:
    Rectangle(int width, int height)
        : m_width(width)
        , m_height(height)
    { }
    int area() const;

private:
    int m_width;
    int m_height;
};

int Rectangle::area() const
{
    return m_width * m_height; // line: area
}

template<typename T> T twice(T value)
{
    return value + value; // line: twice
}

} // namespace geometry

int main(int argc, char **)
{
    const geometry::Rectangle rectangle(argc, 3);
    std::printf("%d %d %f\n", rectangle.area(), geometry::twice<int>(argc), geometry::twice<double>(argc * 0.5));
    return 0;
}
