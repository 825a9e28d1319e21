// low.cpp — fixture: the low header's source.
#include "arbiter/low.hpp"
