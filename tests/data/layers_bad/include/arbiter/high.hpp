// high.hpp — fixture of the layer check.
#pragma once
