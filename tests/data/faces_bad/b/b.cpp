// a face that includes another face
#include "b.hpp"
#include "a.hpp"
