// decoders.hpp — inside the library: the decompressors of input.cpp's byte sources (Zstandard,
// gzip, bzip2), apart so that a build without those libraries (the WebAssembly build) links
// decoders_none.cpp instead of decoders.cpp and refuses compressed input with a clear error.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "arbiter/expected.hpp"
#include "arbiter/input.hpp"

namespace arbiter::detail {

/// An allocator that leaves the bytes it makes room for as they are (a buffer is read into, so
/// zeroing it first, a quarter of a megabyte at each start, was wasted).
template <class T>
struct UninitializedAllocator : std::allocator<T> {
    template <class U>
    struct rebind {
        using other = UninitializedAllocator<U>;
    };
    UninitializedAllocator() = default;
    template <class U>
    UninitializedAllocator(const UninitializedAllocator<U>&) noexcept {}
    template <class U>
    void construct(U* p) noexcept {
        ::new (static_cast<void*>(p)) U;
    }
    template <class U, class... A>
    void construct(U* p, A&&... args) {
        ::new (static_cast<void*>(p)) U(std::forward<A>(args)...);
    }
};

/// Bytes read into: resized without being zeroed.
using ByteBuffer = std::vector<char, UninitializedAllocator<char>>;

/// The raw (compressed) bytes a decoder reads: in[pos, in.size()) are available now.
class RawInput {
public:
    ByteBuffer in;
    std::size_t pos = 0;
    /// Makes input available (refills `in` once it is used up): false at the end of the raw input.
    virtual Expected<bool, InputError> ready() = 0;
    /// The absolute offset in the raw input of in[pos + k].
    [[nodiscard]] virtual std::uint64_t offset(std::size_t k = 0) const noexcept = 0;
    /// Raw bytes read so far.
    [[nodiscard]] virtual std::uint64_t consumed() const noexcept = 0;
    /// An error of this input at a raw offset.
    [[nodiscard]] virtual InputError error(InputError::Code code, std::uint64_t offset, std::string message) const = 0;

protected:
    ~RawInput() = default;
};

/// Turns the raw input into text.
class Decoder {
public:
    virtual ~Decoder() = default;
    /// Up to `size` bytes of text; 0 at the end.
    virtual Expected<std::size_t, InputError> read(char* buffer, std::size_t size) = 0;
};

/// The decoder of a compression (zstd, gzip or bzip2) reading `raw`, which outlives it.
Expected<std::unique_ptr<Decoder>, InputError> make_decoder(InputOptions::Compression c, RawInput& raw);

}  // namespace arbiter::detail
