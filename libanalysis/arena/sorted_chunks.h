// SortedChunks: an ordered set of small trivially copyable keys kept in sorted runs ("chunks") of
// at most kChunk keys, for SkylineHoles' hole index (issue 46).
//
// The index holds one set per segment-tree node and a query searches about twenty of them;
// std::set made each search a chain of cache misses (one per tree level) and cost 72 bytes and
// an allocation per key: at a million nodes with half a million partitions the index was a third
// of the planning time and most of its memory. Here a search is a binary search over the chunks
// (by their last keys) and one inside a chunk; a key costs its own bytes. Insertion and erasure
// move at most one chunk's keys, plus the chunk list when a chunk splits or empties.
//
// The same operations as a std::set of unique keys, which the tests use as its reference.
#ifndef LIBANALYSIS_ARENA_SORTED_CHUNKS_H_
#define LIBANALYSIS_ARENA_SORTED_CHUNKS_H_

#include <algorithm>
#include <cstddef>
#include <vector>

namespace tfa {

template <typename Key, size_t kChunk = 128>
class SortedChunks {
 public:
  // Forward iteration in key order.
  class const_iterator {
   public:
    const Key& operator*() const { return (*chunks_)[chunk_][position_]; }
    const Key* operator->() const { return &**this; }
    const_iterator& operator++() {
      if (++position_ == (*chunks_)[chunk_].size()) {
        ++chunk_;
        position_ = 0;
      }
      return *this;
    }
    bool operator==(const const_iterator& other) const {
      return chunk_ == other.chunk_ && position_ == other.position_;
    }

   private:
    friend class SortedChunks;
    const_iterator(const std::vector<std::vector<Key>>* chunks, size_t chunk, size_t position)
        : chunks_(chunks), chunk_(chunk), position_(position) {}
    const std::vector<std::vector<Key>>* chunks_;
    size_t chunk_;
    size_t position_;
  };

  bool empty() const { return chunks_.empty(); }
  // The ends are kept beside the chunk list: a search often ends at them without reading a chunk.
  const Key& front() const { return front_; }
  const Key& back() const { return back_; }
  const_iterator end() const { return {&chunks_, chunks_.size(), 0}; }

  // The first key not less than `key`.
  const_iterator lower_bound(const Key& key) const {
    if (chunks_.empty() || !(front_ < key)) return {&chunks_, 0, 0};
    if (back_ < key) return end();
    const size_t chunk = ChunkFor(key);
    if (chunk == chunks_.size()) return end();
    const std::vector<Key>& keys = chunks_[chunk];
    return {&chunks_, chunk,
            static_cast<size_t>(std::lower_bound(keys.begin(), keys.end(), key) - keys.begin())};
  }

  // Adds `key` unless an equal key is there. A full chunk splits before it takes the key, into
  // halves that each keep room for kChunk keys: a chunk is allocated once, when it is made,
  // rather than grown past kChunk and shrunk back.
  void insert(const Key& key) {
    if (chunks_.empty()) {
      chunks_.emplace_back(1, key);
      lasts_.push_back(key);
      front_ = back_ = key;
      return;
    }
    // A key above every chunk's last goes to the last chunk.
    size_t chunk = std::min(ChunkFor(key), chunks_.size() - 1);
    {
      const std::vector<Key>& keys = chunks_[chunk];
      const auto at = std::lower_bound(keys.begin(), keys.end(), key);
      if (at != keys.end() && !(key < *at)) return;
    }
    if (key < front_) front_ = key;
    if (back_ < key) back_ = key;
    if (chunks_[chunk].size() == kChunk) {
      std::vector<Key> upper;
      upper.reserve(kChunk);
      std::vector<Key>& lower = chunks_[chunk];
      upper.assign(lower.begin() + kChunk / 2, lower.end());
      lower.resize(kChunk / 2);
      lasts_[chunk] = lower.back();
      lasts_.insert(lasts_.begin() + static_cast<std::ptrdiff_t>(chunk) + 1, upper.back());
      chunks_.insert(chunks_.begin() + static_cast<std::ptrdiff_t>(chunk) + 1, std::move(upper));
      if (lasts_[chunk] < key) ++chunk;
    }
    std::vector<Key>& keys = chunks_[chunk];
    keys.insert(std::lower_bound(keys.begin(), keys.end(), key), key);
    lasts_[chunk] = keys.back();
  }

  // Removes the key equal to `key`, if any.
  void erase(const Key& key) {
    const size_t chunk = ChunkFor(key);
    if (chunk == chunks_.size()) return;
    std::vector<Key>& keys = chunks_[chunk];
    const auto at = std::lower_bound(keys.begin(), keys.end(), key);
    if (at == keys.end() || key < *at) return;
    keys.erase(at);
    if (keys.empty()) {
      chunks_.erase(chunks_.begin() + static_cast<std::ptrdiff_t>(chunk));
      lasts_.erase(lasts_.begin() + static_cast<std::ptrdiff_t>(chunk));
    } else {
      lasts_[chunk] = keys.back();
    }
    if (chunks_.empty()) return;
    front_ = chunks_.front().front();
    back_ = chunks_.back().back();
  }

 private:
  // The first chunk whose last key is not less than `key` (chunks_.size() if none).
  size_t ChunkFor(const Key& key) const {
    return static_cast<size_t>(std::lower_bound(lasts_.begin(), lasts_.end(), key) -
                               lasts_.begin());
  }

  std::vector<std::vector<Key>> chunks_;  // non-empty, sorted, each chunk's keys below the next's
  // Each chunk's last key, side by side: a search reads one array, not a block per chunk probed.
  std::vector<Key> lasts_;
  Key front_{};  // the least and the greatest key, while not empty
  Key back_{};
};

}  // namespace tfa

#endif  // LIBANALYSIS_ARENA_SORTED_CHUNKS_H_
