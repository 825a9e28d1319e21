// b.cpp — fixture: face b includes face a by a path up and across.
#include "../b/../a/a.hpp"
