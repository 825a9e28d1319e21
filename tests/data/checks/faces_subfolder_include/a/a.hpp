// a.hpp — fixture: the header of face a.
#pragma once
#include "core.hpp"
