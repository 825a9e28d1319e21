// b
#pragma once
