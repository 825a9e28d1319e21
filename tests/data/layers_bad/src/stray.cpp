// stray.cpp — fixture of the layer check: a source in no layer.
#include "arbiter/low.hpp"
