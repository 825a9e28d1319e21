// low.hpp — fixture: a header of the low layer.
#pragma once
