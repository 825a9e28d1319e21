// http.hpp — fixture: a face's header.
#pragma once
