// part.cpp — fixture: a file two folders down in face b includes face a.
#include "a.hpp"
