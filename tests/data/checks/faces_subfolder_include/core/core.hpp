// core.hpp — fixture: a header of the core.
#pragma once
