// high.hpp — fixture: a header of the high layer.
#pragma once
#include "arbiter/low.hpp"
