// the core includes a face
#include "a.hpp"
