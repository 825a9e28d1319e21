// Byte sources: files, memory, Zstandard (streamed, multi-frame, corrupt, truncated).
#include <bzlib.h>
#include <gtest/gtest.h>
#include <zlib.h>
#include <zstd.h>

#include <cstdio>
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

TEST(Input, PartOfAFileByStartAndLength) {
    // Issue 30: a task reads its own bytes of a file; offsets in errors stay the whole file's.
    const std::string dir = ARBITER_TEST_DATA "/pgn/";
    auto whole = open_input(dir + "features.pgn");
    ASSERT_TRUE(whole);
    const std::string text = read_all(**whole);
    InputOptions o;
    o.compression = InputOptions::Compression::plain;
    o.start = 100;
    o.length = 250;
    auto part = open_input(dir + "features.pgn", o);
    ASSERT_TRUE(part);
    EXPECT_EQ(read_all(**part, 7), text.substr(100, 250));
    EXPECT_EQ((*part)->consumed(), 350u);
    o.length.reset();
    auto rest = open_input(dir + "features.pgn", o);
    ASSERT_TRUE(rest);
    EXPECT_EQ(read_all(**rest), text.substr(100));
    // Frames: the second of two concatenated frames, read from its own start; a truncated one
    // reports the offset in the whole file.
    const std::string a = compress(sample(5000)), b = compress(sample(7000));
    const std::string path = ::testing::TempDir() + "arbiter_part_test.zst";
    {
        std::FILE* f = std::fopen(path.c_str(), "wb");
        ASSERT_NE(f, nullptr);
        std::fwrite(a.data(), 1, a.size(), f);
        std::fwrite(b.data(), 1, b.size(), f);
        std::fclose(f);
    }
    InputOptions z;
    z.compression = InputOptions::Compression::zstd;
    z.start = a.size();
    auto second = open_input(path, z);
    ASSERT_TRUE(second);
    EXPECT_EQ(read_all(**second), sample(7000));
    z.length = b.size() - 10;
    auto cut = open_input(path, z);
    ASSERT_TRUE(cut);
    std::string buf(100000, '\0');
    Expected<std::size_t, InputError> got = std::size_t{1};
    while (got && *got > 0) got = (*cut)->read(buf.data(), buf.size());
    ASSERT_FALSE(got);
    EXPECT_EQ(got.error().code, InputError::Code::truncated_zstd);
    EXPECT_EQ(got.error().offset, a.size() + b.size() - 10);
    std::remove(path.c_str());
}

namespace {

std::string gzip(const std::string& data) {
    z_stream z{};
    EXPECT_EQ(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
    std::string out(deflateBound(&z, static_cast<uLong>(data.size())) + 64, '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    z.avail_in = static_cast<uInt>(data.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    EXPECT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
    out.resize(z.total_out);
    deflateEnd(&z);
    return out;
}

std::string bzip2(const std::string& data) {
    std::string out(data.size() + data.size() / 100 + 1000, '\0');
    auto n = static_cast<unsigned>(out.size());
    EXPECT_EQ(BZ2_bzBuffToBuffCompress(out.data(), &n, const_cast<char*>(data.data()),
                                       static_cast<unsigned>(data.size()), 9, 0, 0),
              BZ_OK);
    out.resize(n);
    return out;
}

// Reads to the end or the first error.
Expected<std::string, InputError> drain(ByteSource& src) {
    std::string out, buf(1 << 16, '\0');
    for (;;) {
        auto got = src.read(buf.data(), buf.size());
        if (!got) return Unexpected(got.error());
        if (*got == 0) return out;
        out.append(buf.data(), *got);
    }
}

}  // namespace

TEST(Input, GzipAndBzip2AreDetectedByContent) {
    const std::string a = sample(400000), b = sample(1000);
    const std::string gzs = gzip(a) + gzip(b), bzs = bzip2(a) + bzip2(b);
    auto gz = memory_input(gzs, {}, "games.pgn");  // two members, a plain name
    EXPECT_EQ(read_all(*gz, 4096), a + b);
    auto bz = memory_input(bzs);
    EXPECT_EQ(read_all(*bz, 4096), a + b);
}

TEST(Input, TruncatedGzipAndBzip2) {
    std::string gz = gzip(sample(200000)), bz = bzip2(sample(200000));
    gz.resize(gz.size() / 2);
    bz.resize(bz.size() / 2);
    auto g = memory_input(gz);
    auto r = drain(*g);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, InputError::Code::truncated_gzip);
    EXPECT_EQ(r.error().offset, gz.size());
    auto b = memory_input(bz);
    r = drain(*b);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, InputError::Code::truncated_bzip2);
}

TEST(Input, CorruptGzipNamesAnOffsetInsideTheStream) {
    std::string gz = gzip(sample(300000));
    for (std::size_t i = gz.size() / 2; i < gz.size() / 2 + 40; ++i) gz[i] = '\xff';
    auto g = memory_input(gz);
    auto r = drain(*g);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, InputError::Code::corrupt_gzip);
    EXPECT_GE(r.error().offset, gz.size() / 2);
    EXPECT_LE(r.error().offset, gz.size());
}

TEST(Input, ArchivesAndBinariesAreRefusedWithAHint) {
    const std::pair<std::string, const char*> cases[] = {
        {std::string("PK\x03\x04\x14\x00\x00\x00", 8) + "game.pgn", "looks like a ZIP archive; unzip it first"},
        {std::string("\xFD"
                     "7zXZ\x00\x00",
                     7),
         "xz"},
        {std::string("\x7F"
                     "ELF\x02\x01\x01",
                     7),
         "executable"},
        {std::string("\xFF\xFE[\x00"
                     "E\x00",
                     6),
         "UTF-16"},
        {std::string("[Event \"a\"]\n\x00\x01\x02", 15), "NUL byte"},
    };
    for (const auto& [bytes, hint] : cases) {
        auto src = memory_input(bytes);
        auto r = drain(*src);
        ASSERT_FALSE(r) << hint;
        EXPECT_EQ(r.error().code, InputError::Code::not_text) << hint;
        EXPECT_NE(r.error().describe().find(hint), std::string::npos) << r.error().describe();
    }
    // Forced plain passes every byte.
    const std::string zip("PK\x03\x04", 4);
    auto plain = memory_input(zip, {InputOptions::Compression::plain});
    EXPECT_EQ(read_all(*plain), zip);
}

TEST(Input, ZstdSkippableFramesAreSkipped) {
    const std::string a = sample(50000);
    std::string skip(
        "\x50\x2A\x4D\x18\x04\x00\x00\x00"
        "abcd",
        12);  // as pzstd writes first
    const std::string z = skip + compress(a) + skip;
    auto src = memory_input(z);
    EXPECT_EQ(read_all(*src, 4096), a);
}

TEST(Input, ZstdLongWindowIsRead) {
    // A frame with a 256 MiB window (zstd --long=28): more than the decoder's default limit.
    const std::string a = sample(300000);
    ZSTD_CCtx* c = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(c, ZSTD_c_windowLog, 28);
    ZSTD_CCtx_setParameter(c, ZSTD_c_enableLongDistanceMatching, 1);
    ZSTD_CCtx_setPledgedSrcSize(c, ZSTD_CONTENTSIZE_UNKNOWN);
    std::string z(ZSTD_compressBound(a.size()) + 1024, '\0');
    ZSTD_outBuffer out{z.data(), z.size(), 0};
    ZSTD_inBuffer in{a.data(), a.size(), 0};
    ASSERT_EQ(ZSTD_compressStream2(c, &out, &in, ZSTD_e_end), 0u);
    ZSTD_freeCCtx(c);
    z.resize(out.pos);
    auto src = memory_input(z);
    EXPECT_EQ(read_all(*src, 65536), a);
}

TEST(Input, ZstdCorruptionIsReportedAtTheFailingBlock) {
    std::string a;
    std::uint32_t x = 12345;
    while (a.size() < 3'000'000) {
        x = x * 1103515245u + 12345u;
        a += "1. e4 e5 2. Nf3 Nc6 " + std::to_string(x >> 16) + (x % 7 == 0 ? "\n" : " ");
    }
    std::string z = compress(a, 1);
    ASSERT_GT(z.size(), 120000u);
    for (std::size_t i = 100000; i < 104000; ++i) z[i] = static_cast<char>(i * 7);
    auto src = memory_input(z);
    auto r = drain(*src);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, InputError::Code::corrupt_zstd);
    EXPECT_GT(r.error().offset, 0u);                    // not "at compressed byte 0"
    EXPECT_LE(r.error().offset, 100000u);               // the block holding the damage starts before it
    EXPECT_GT(r.error().offset + (1u << 17), 100000u);  // ... and at most one block (128 KiB) before
}

TEST(Input, ZstdChecksumErrorNamesTheFrame) {
    const std::string a = sample(100000);
    ZSTD_CCtx* c = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
    std::string z(ZSTD_compressBound(a.size()), '\0');
    z.resize(ZSTD_compress2(c, z.data(), z.size(), a.data(), a.size()));
    ZSTD_freeCCtx(c);
    const std::string first = compress(sample(1000));
    z = first + z;
    z[z.size() - 2] = static_cast<char>(z[z.size() - 2] ^ 0x55);
    auto src = memory_input(z);
    auto r = drain(*src);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, InputError::Code::corrupt_zstd);
    EXPECT_EQ(r.error().offset, z.size() - 4);  // the checksum field
    EXPECT_NE(r.error().message.find("frame starting at compressed byte " + std::to_string(first.size())),
              std::string::npos)
        << r.error().message;
}
