// decoders.cpp — the Zstandard, gzip and bzip2 decoders of the byte sources (decoders.hpp).
#include "decoders.hpp"

#include <bzlib.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#include <algorithm>
#include <climits>

namespace arbiter::detail {

namespace {

class ZstdDecoder final : public Decoder {
public:
    explicit ZstdDecoder(RawInput& raw, ZSTD_DCtx* dctx) : raw_(raw), dctx_(dctx) {}
    ~ZstdDecoder() override { ZSTD_freeDCtx(dctx_); }
    ZstdDecoder(const ZstdDecoder&) = delete;
    ZstdDecoder& operator=(const ZstdDecoder&) = delete;

    // Zstandard. The input is given in the pieces the decoder asks for (a block at a time), so
    // an error is reported at the compressed offset of the block that failed.
    Expected<std::size_t, InputError> read(char* buffer, std::size_t size) override {
        ZSTD_outBuffer out{buffer, size, 0};
        for (;;) {
            auto ready = raw_.ready();
            if (!ready) return Unexpected(std::move(ready.error()));
            const bool eof = !*ready;
            if (eof && !frame_open_) return std::size_t{0};
            std::size_t n = 0;
            if (!eof) {
                if (!frame_open_ && unit_left_ == 0) frame_start_ = raw_.offset();
                if (unit_left_ == 0) {
                    unit_start_ = raw_.offset();
                    unit_left_ = std::max<std::size_t>(hint_, 1);
                }
                n = std::min(unit_left_, raw_.in.size() - raw_.pos);
            }
            ZSTD_inBuffer in{raw_.in.data() + raw_.pos, n, 0};
            const std::size_t ret = ZSTD_decompressStream(dctx_, &out, &in);
            if (ZSTD_isError(ret)) {
                const auto code = ZSTD_getErrorCode(ret);
                std::string why = std::string("corrupt zstd data: ") + ZSTD_getErrorName(ret);
                if (code == ZSTD_error_checksum_wrong)
                    why = "corrupt zstd data: the checksum of the frame starting at compressed byte " +
                          std::to_string(frame_start_) + " does not match (damaged somewhere in that frame)";
                else
                    why += " (in the block starting here)";
                if (code == ZSTD_error_frameParameter_windowTooLarge)
                    why = "the zstd frame needs a window larger than 2 GiB (more than `zstd -d --long=31` reads)";
                return Unexpected(raw_.error(InputError::Code::corrupt_zstd, unit_start_, why));
            }
            raw_.pos += in.pos;
            unit_left_ -= in.pos;
            hint_ = ret;
            frame_open_ = ret != 0;
            if (out.pos > 0) return out.pos;
            if (eof) {
                if (frame_open_)
                    return Unexpected(raw_.error(InputError::Code::truncated_zstd, raw_.consumed(),
                                                 "the compressed data ends in the middle of a frame"));
                return std::size_t{0};
            }
        }
    }

private:
    RawInput& raw_;
    ZSTD_DCtx* dctx_;
    bool frame_open_ = false;
    std::size_t hint_ = 1;
    std::size_t unit_left_ = 0;
    std::uint64_t unit_start_ = 0;
    std::uint64_t frame_start_ = 0;
};

class GzipDecoder final : public Decoder {
public:
    explicit GzipDecoder(RawInput& raw) : raw_(raw) {}
    ~GzipDecoder() override { end_gzip(); }
    GzipDecoder(const GzipDecoder&) = delete;
    GzipDecoder& operator=(const GzipDecoder&) = delete;

    void end_gzip() {
        if (gzip_open_) inflateEnd(&zs_);
        gzip_open_ = false;
    }

    // gzip, every member of a multi-member file in turn (as `gzip -d` reads them).
    Expected<std::size_t, InputError> read(char* buffer, std::size_t size) override {
        const auto chunk = static_cast<uInt>(std::min<std::size_t>(size, UINT_MAX));
        for (;;) {
            auto ready = raw_.ready();
            if (!ready) return Unexpected(std::move(ready.error()));
            const bool eof = !*ready;
            if (eof && !(gzip_open_ && member_started_)) return std::size_t{0};
            if (!gzip_open_) {
                zs_ = z_stream{};
                if (inflateInit2(&zs_, 15 + 16) != Z_OK)
                    return Unexpected(
                        raw_.error(InputError::Code::corrupt_gzip, raw_.offset(), "cannot create a gzip decoder"));
                gzip_open_ = true;
                member_started_ = false;
            }
            const auto avail = static_cast<uInt>(std::min<std::size_t>(raw_.in.size() - raw_.pos, UINT_MAX));
            zs_.next_in = reinterpret_cast<Bytef*>(raw_.in.data() + raw_.pos);
            zs_.avail_in = avail;
            zs_.next_out = reinterpret_cast<Bytef*>(buffer);
            zs_.avail_out = chunk;
            const int rc = inflate(&zs_, Z_NO_FLUSH);
            const std::size_t used = avail - zs_.avail_in;
            if (used > 0) member_started_ = true;
            if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) {
                const std::string why = zs_.msg ? zs_.msg : "inflate failed";
                return Unexpected(
                    raw_.error(InputError::Code::corrupt_gzip, raw_.offset(used), "corrupt gzip data: " + why));
            }
            raw_.pos += used;
            if (rc == Z_STREAM_END) end_gzip();
            const std::size_t produced = chunk - zs_.avail_out;
            if (produced > 0) return produced;
            if (eof && gzip_open_)
                return Unexpected(raw_.error(InputError::Code::truncated_gzip, raw_.consumed(),
                                             "the compressed data ends in the middle of a gzip member"));
        }
    }

private:
    RawInput& raw_;
    z_stream zs_{};
    bool gzip_open_ = false;
    bool member_started_ = false;
};

class Bzip2Decoder final : public Decoder {
public:
    explicit Bzip2Decoder(RawInput& raw) : raw_(raw) {}
    ~Bzip2Decoder() override { end_bzip2(); }
    Bzip2Decoder(const Bzip2Decoder&) = delete;
    Bzip2Decoder& operator=(const Bzip2Decoder&) = delete;

    void end_bzip2() {
        if (bzip2_open_) BZ2_bzDecompressEnd(&bz_);
        bzip2_open_ = false;
    }

    // bzip2, every stream of a concatenated file in turn.
    Expected<std::size_t, InputError> read(char* buffer, std::size_t size) override {
        const auto chunk = static_cast<unsigned>(std::min<std::size_t>(size, UINT_MAX));
        for (;;) {
            auto ready = raw_.ready();
            if (!ready) return Unexpected(std::move(ready.error()));
            const bool eof = !*ready;
            if (eof && !(bzip2_open_ && member_started_)) return std::size_t{0};
            if (!bzip2_open_) {
                bz_ = bz_stream{};
                if (BZ2_bzDecompressInit(&bz_, 0, 0) != BZ_OK)
                    return Unexpected(
                        raw_.error(InputError::Code::corrupt_bzip2, raw_.offset(), "cannot create a bzip2 decoder"));
                bzip2_open_ = true;
                member_started_ = false;
            }
            const auto avail = static_cast<unsigned>(std::min<std::size_t>(raw_.in.size() - raw_.pos, UINT_MAX));
            bz_.next_in = raw_.in.data() + raw_.pos;
            bz_.avail_in = avail;
            bz_.next_out = buffer;
            bz_.avail_out = chunk;
            const int rc = BZ2_bzDecompress(&bz_);
            const std::size_t used = avail - bz_.avail_in;
            if (used > 0) member_started_ = true;
            if (rc != BZ_OK && rc != BZ_STREAM_END) {
                const char* why = rc == BZ_DATA_ERROR_MAGIC ? "not bzip2 data"
                                  : rc == BZ_MEM_ERROR      ? "out of memory"
                                                            : "the data is damaged";
                return Unexpected(raw_.error(InputError::Code::corrupt_bzip2, raw_.offset(used),
                                             std::string("corrupt bzip2 data: ") + why));
            }
            raw_.pos += used;
            if (rc == BZ_STREAM_END) end_bzip2();
            const std::size_t produced = chunk - bz_.avail_out;
            if (produced > 0) return produced;
            if (eof && bzip2_open_)
                return Unexpected(raw_.error(InputError::Code::truncated_bzip2, raw_.consumed(),
                                             "the compressed data ends in the middle of a bzip2 stream"));
        }
    }

private:
    RawInput& raw_;
    bz_stream bz_{};
    bool bzip2_open_ = false;
    bool member_started_ = false;
};

}  // namespace

Expected<std::unique_ptr<Decoder>, InputError> make_decoder(InputOptions::Compression c, RawInput& raw) {
    std::unique_ptr<Decoder> d;
    switch (c) {
        case InputOptions::Compression::zstd: {
            ZSTD_DCtx* dctx = ZSTD_createDCtx();
            if (!dctx) return Unexpected(raw.error(InputError::Code::corrupt_zstd, 0, "cannot create a zstd decoder"));
            // Frames written with --long (windows up to 2 GiB) are read as `zstd -d --long=31` does.
            ZSTD_DCtx_setParameter(dctx, ZSTD_d_windowLogMax, 31);
            d = std::make_unique<ZstdDecoder>(raw, dctx);
            break;
        }
        case InputOptions::Compression::gzip: d = std::make_unique<GzipDecoder>(raw); break;
        case InputOptions::Compression::bzip2: d = std::make_unique<Bzip2Decoder>(raw); break;
        case InputOptions::Compression::detect:
        case InputOptions::Compression::plain: break;
    }
    return d;
}

}  // namespace arbiter::detail
