// b.cpp — fixture: face b includes face a in angle brackets.
#include <a.hpp>
#include <vector>
