// Reading a private, read-only file mapping once, front to back, without keeping it resident.
//
// A mapped file's pages count in the process's resident size once touched, and stay until
// unmapped: parsing a 200 MB Graph JSON file kept 200 MB resident next to the graph built from it
// (issue 18). Giving the pages already read back to the kernel (madvise MADV_DONTNEED) leaves a
// window of a few megabytes instead. The bytes stay readable: a page given back is read from the
// file (the page cache) again when touched. Only a clean file mapping may be given back: anonymous
// memory would read back as zeros.
#ifndef LIBANALYSIS_CORE_MAPPED_PAGES_H_
#define LIBANALYSIS_CORE_MAPPED_PAGES_H_

#include <cstddef>
#include <string_view>
#include <vector>

#include "libanalysis/core/char_iterator.h"

namespace tfa {

// Gives back the whole pages inside `text`, a part of a private read-only file mapping.
void GiveBackMappedPages(std::string_view text);

// Reads one byte of every page of `text`. The first read of a mapped page can cost far more than
// its mapping: on the virtual machines this project runs on, the host maps the page in then (0.13
// s for 200 MB, which MADV_POPULATE_READ does not take, as it maps pages without reading them). A
// thread that reads ahead of a pass over the text takes that cost off the pass.
void ReadEveryPage(std::string_view text);

// Memory this process allocated and has not yet written.
struct PageRange {
  void* begin = nullptr;
  size_t bytes = 0;
};

// Has the kernel back the whole pages of `ranges` with zeroed pages now (madvise
// MADV_POPULATE_WRITE), in slices on all cores: the page faults of a large allocation are most of
// the cost of filling it, and several threads take them at once. A kernel without it leaves the
// faults to the first writes.
void PrefaultPages(const std::vector<PageRange>& ranges);

// A character iterator over such a mapping (with `give_back`; without, over any memory) that
// gives back the pages it has passed, every few megabytes: for parsers that take an iterator
// pair and read once, front to back (nlohmann's sax_parse).
class PageReleasingIterator : public CharIterator<PageReleasingIterator> {
 public:
  PageReleasingIterator() = default;
  // At byte `offset` of `mapping`, which starts on a page.
  PageReleasingIterator(std::string_view mapping, size_t offset, bool give_back);

  PageReleasingIterator& operator++() {
    if (++position_ == next_give_back_) GiveBackPassedPages();
    return *this;
  }

 private:
  void GiveBackPassedPages();

  const char* end_ = nullptr;             // the mapping's
  const char* given_back_ = nullptr;      // the pages before it are given back
  const char* next_give_back_ = nullptr;  // null: never
};

}  // namespace tfa

#endif  // LIBANALYSIS_CORE_MAPPED_PAGES_H_
