// stray.cpp — fixture: a source no layer lists.
#include "arbiter/low.hpp"
