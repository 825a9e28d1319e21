// part.cpp — fixture: a low source in a subfolder that includes the high layer.
#include <arbiter/high.hpp>
#include <arbiter/low.hpp>
#include <string>
