// a core header
#pragma once
