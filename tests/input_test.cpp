// Byte sources: files, memory, Zstandard (streamed, multi-frame, corrupt, truncated).
#include <gtest/gtest.h>
#include <zstd.h>

#include <string>

#include "arbiter/input.hpp"

using namespace arbiter;

namespace {

std::string read_all(ByteSource& src, std::size_t step = 1000) {
    std::string out;
    std::string buf(step, '\0');
    for (;;) {
        auto got = src.read(buf.data(), buf.size());
        EXPECT_TRUE(got);
        if (!got || *got == 0) break;
        out.append(buf.data(), *got);
    }
    return out;
}

std::string compress(const std::string& data, int level = 3) {
    std::string out(ZSTD_compressBound(data.size()), '\0');
    const std::size_t n = ZSTD_compress(out.data(), out.size(), data.data(), data.size(), level);
    EXPECT_FALSE(ZSTD_isError(n));
    out.resize(n);
    return out;
}

std::string sample(std::size_t size) {
    std::string s;
    for (std::size_t i = 0; s.size() < size; ++i) s += "1. e4 e5 2. Nf3 Nc6 " + std::to_string(i) + "\n";
    s.resize(size);
    return s;
}

}  // namespace

TEST(Input, MissingFileIsCannotOpen) {
    auto src = open_input("/nonexistent/dir/games.pgn");
    ASSERT_FALSE(src);
    EXPECT_EQ(src.error().code, InputError::Code::cannot_open);
    EXPECT_NE(src.error().describe().find("/nonexistent/dir/games.pgn"), std::string::npos);
}

TEST(Input, DirectoryIsCannotOpen) {
    auto src = open_input("/");
    ASSERT_FALSE(src);
    EXPECT_EQ(src.error().code, InputError::Code::cannot_open);
}

TEST(Input, PlainMemoryInSmallChunks) {
    const std::string data = sample(100000);
    InputOptions o;
    o.chunk_size = 100;
    auto src = memory_input(data, o);
    EXPECT_EQ(read_all(*src, 333), data);
    EXPECT_EQ(src->consumed(), data.size());
}

TEST(Input, ZstdIsDetectedAndStreamed) {
    const std::string data = sample(3'000'000);
    const std::string z = compress(data);
    InputOptions o;
    o.chunk_size = 4096;
    auto src = memory_input(z, o);
    EXPECT_EQ(read_all(*src, 65536), data);
    EXPECT_EQ(src->consumed(), z.size());
}

TEST(Input, ConcatenatedFramesAndEmptyInput) {
    const std::string a = sample(5000), b = sample(7000);
    const std::string z = compress(a) + compress(b);
    auto src = memory_input(z);
    EXPECT_EQ(read_all(*src), a + b);
    auto empty = memory_input("");
    EXPECT_EQ(read_all(*empty), "");
}

TEST(Input, CorruptZstdReportsAnOffset) {
    std::string z = compress(sample(200000));
    for (std::size_t i = 20; i < z.size(); i += 7) z[i] = static_cast<char>(z[i] ^ 0x5A);
    auto src = memory_input(z);
    std::string buf(1 << 16, '\0');
    bool failed = false;
    for (int i = 0; i < 100 && !failed; ++i) {
        auto got = src->read(buf.data(), buf.size());
        if (!got) {
            failed = true;
            EXPECT_EQ(got.error().code, InputError::Code::corrupt_zstd);
            EXPECT_LE(got.error().offset, z.size());
            EXPECT_NE(got.error().describe().find("corrupt"), std::string::npos);
        } else if (*got == 0) {
            break;
        }
    }
    EXPECT_TRUE(failed);
    // After an error the source stays at its end.
    auto again = src->read(buf.data(), buf.size());
    ASSERT_TRUE(again);
    EXPECT_EQ(*again, 0u);
}

TEST(Input, TruncatedZstd) {
    std::string z = compress(sample(200000));
    z.resize(z.size() / 2);
    auto src = memory_input(z);
    std::string buf(1 << 16, '\0');
    bool failed = false;
    for (int i = 0; i < 100; ++i) {
        auto got = src->read(buf.data(), buf.size());
        if (!got) {
            failed = true;
            EXPECT_EQ(got.error().code, InputError::Code::truncated_zstd);
            break;
        }
        if (*got == 0) break;
    }
    EXPECT_TRUE(failed);
}

TEST(Input, ForcedPlainDoesNotDecompress) {
    const std::string z = compress(sample(1000));
    InputOptions o;
    o.compression = InputOptions::Compression::plain;
    auto src = memory_input(z, o);
    EXPECT_EQ(read_all(*src), z);
}

TEST(Input, FileFixtureAndItsZstdTwin) {
    const std::string dir = ARBITER_TEST_DATA "/pgn/";
    auto plain = open_input(dir + "features.pgn");
    auto packed = open_input(dir + "features.pgn.zst");
    ASSERT_TRUE(plain);
    ASSERT_TRUE(packed);
    EXPECT_TRUE((*plain)->total().has_value());
    EXPECT_EQ(read_all(**plain), read_all(**packed));
}
