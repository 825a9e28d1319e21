// low.cpp — fixture of the layer check: a source of the low layer.
#include "arbiter/low.hpp"
