// a face header
#pragma once
#include "core.hpp"
