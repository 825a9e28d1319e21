// low.cpp — fixture: a library source that includes a face.
#include "arbiter/low.hpp"
#include "../serve/http.hpp"
