// low.hpp — fixture of the layer check: a low header that includes upwards.
#pragma once
#include "arbiter/high.hpp"
