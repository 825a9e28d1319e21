// b.cpp — fixture: face b's top file, which includes only the core.
#include "core.hpp"
