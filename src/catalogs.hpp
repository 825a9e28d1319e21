// catalogs.hpp — the message catalogs compiled into the library (internal): for each po/*.po, its
// language as the PO header declares it, its MO file (msgfmt's output) as bytes, and its plural
// rule compiled from the header's Plural-Forms. Generated at build time by
// cmake/embed_catalogs.cmake (catalogs.cpp in the build tree).
#pragma once

#include <cstddef>
#include <span>
#include <string_view>

namespace arbiter::detail {

struct CompiledCatalog {
    std::string_view code;    ///< the PO file's name: "fa"
    std::string_view name;    ///< X-Arbiter-Name: the language's name for itself
    bool right_to_left;       ///< X-Arbiter-Direction: rtl
    std::string_view digits;  ///< X-Arbiter-Digits: its ten digits, "" for 0-9
    const unsigned char* mo;
    std::size_t size;
    unsigned long (*plural)(unsigned long n);  ///< Plural-Forms' plural=
    unsigned plurals;                          ///< Plural-Forms' nplurals=
};

/// Every catalog, in the order of po/LINGUAS.
std::span<const CompiledCatalog> compiled_catalogs();

}  // namespace arbiter::detail
