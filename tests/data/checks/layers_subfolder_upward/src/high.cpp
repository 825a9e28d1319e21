// high.cpp — fixture: the high header's source.
#include "arbiter/high.hpp"
