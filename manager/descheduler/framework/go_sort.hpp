// Go's sort.Slice (pattern-defeating quicksort, insertion sort up to 12 elements) reproduced step
// for step, so that an unstable sort with a comparator that is not a strict weak order (the
// community descheduler sorts pods with several) leaves equal elements in the same places as the
// Go program would. goSortSlice(v, less) is sort.Slice(v, func(i, j) { return less(v[i], v[j]) }).
//
// Header-only; `less` is called on elements, any number of times; it must not modify them.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace koord::manager::descheduler::framework {

namespace gosort_detail {

enum class Hint { kUnknown, kIncreasing, kDecreasing };

template <typename T, typename Less>
class Sorter {
 public:
  Sorter(std::vector<T>& data, const Less& less) : data_(data), less_(less) {}

  void run() {
    const auto n = static_cast<int64_t>(data_.size());
    pdqsort(0, n, static_cast<int>(std::bit_width(static_cast<uint64_t>(n))));
  }

 private:
  bool lt(int64_t i, int64_t j) const { return less_(data_[idx(i)], data_[idx(j)]); }
  void swap(int64_t i, int64_t j) { std::swap(data_[idx(i)], data_[idx(j)]); }
  static size_t idx(int64_t i) { return static_cast<size_t>(i); }

  void insertionSort(int64_t a, int64_t b) {
    for (int64_t i = a + 1; i < b; ++i) {
      for (int64_t j = i; j > a && lt(j, j - 1); --j) {
        swap(j, j - 1);
      }
    }
  }

  void siftDown(int64_t lo, int64_t hi, int64_t first) {
    int64_t root = lo;
    while (true) {
      int64_t child = 2 * root + 1;
      if (child >= hi) {
        return;
      }
      if (child + 1 < hi && lt(first + child, first + child + 1)) {
        ++child;
      }
      if (!lt(first + root, first + child)) {
        return;
      }
      swap(first + root, first + child);
      root = child;
    }
  }

  void heapSort(int64_t a, int64_t b) {
    const int64_t first = a;
    const int64_t hi = b - a;
    for (int64_t i = (hi - 1) / 2; i >= 0; --i) {
      siftDown(i, hi, first);
    }
    for (int64_t i = hi - 1; i >= 0; --i) {
      swap(first, first + i);
      siftDown(0, i, first);
    }
  }

  void pdqsort(int64_t a, int64_t b, int limit) {
    constexpr int64_t kMaxInsertion = 12;
    bool was_balanced = true;
    bool was_partitioned = true;
    while (true) {
      const int64_t length = b - a;
      if (length <= kMaxInsertion) {
        insertionSort(a, b);
        return;
      }
      if (limit == 0) {
        heapSort(a, b);
        return;
      }
      if (!was_balanced) {
        breakPatterns(a, b);
        --limit;
      }
      auto [pivot, hint] = choosePivot(a, b);
      if (hint == Hint::kDecreasing) {
        reverseRange(a, b);
        pivot = (b - 1) - (pivot - a);
        hint = Hint::kIncreasing;
      }
      if (was_balanced && was_partitioned && hint == Hint::kIncreasing &&
          partialInsertionSort(a, b)) {
        return;
      }
      if (a > 0 && !lt(a - 1, pivot)) {
        a = partitionEqual(a, b, pivot);
        continue;
      }
      auto [mid, already] = partition(a, b, pivot);
      was_partitioned = already;
      const int64_t left = mid - a;
      const int64_t right = b - mid;
      const int64_t threshold = length / 8;
      if (left < right) {
        was_balanced = left >= threshold;
        pdqsort(a, mid, limit);
        a = mid + 1;
      } else {
        was_balanced = right >= threshold;
        pdqsort(mid + 1, b, limit);
        b = mid;
      }
    }
  }

  std::pair<int64_t, bool> partition(int64_t a, int64_t b, int64_t pivot) {
    swap(a, pivot);
    int64_t i = a + 1;
    int64_t j = b - 1;
    while (i <= j && lt(i, a)) {
      ++i;
    }
    while (i <= j && !lt(j, a)) {
      --j;
    }
    if (i > j) {
      swap(j, a);
      return {j, true};
    }
    swap(i, j);
    ++i;
    --j;
    while (true) {
      while (i <= j && lt(i, a)) {
        ++i;
      }
      while (i <= j && !lt(j, a)) {
        --j;
      }
      if (i > j) {
        break;
      }
      swap(i, j);
      ++i;
      --j;
    }
    swap(j, a);
    return {j, false};
  }

  int64_t partitionEqual(int64_t a, int64_t b, int64_t pivot) {
    swap(a, pivot);
    int64_t i = a + 1;
    int64_t j = b - 1;
    while (true) {
      while (i <= j && !lt(a, i)) {
        ++i;
      }
      while (i <= j && lt(a, j)) {
        --j;
      }
      if (i > j) {
        break;
      }
      swap(i, j);
      ++i;
      --j;
    }
    return i;
  }

  bool partialInsertionSort(int64_t a, int64_t b) {
    constexpr int kMaxSteps = 5;
    constexpr int64_t kShortestShifting = 50;
    int64_t i = a + 1;
    for (int step = 0; step < kMaxSteps; ++step) {
      while (i < b && !lt(i, i - 1)) {
        ++i;
      }
      if (i == b) {
        return true;
      }
      if (b - a < kShortestShifting) {
        return false;
      }
      swap(i, i - 1);
      if (i - a >= 2) {
        for (int64_t j = i - 1; j >= 1; --j) {
          if (!lt(j, j - 1)) {
            break;
          }
          swap(j, j - 1);
        }
      }
      if (b - i >= 2) {
        for (int64_t j = i + 1; j < b; ++j) {
          if (!lt(j, j - 1)) {
            break;
          }
          swap(j, j - 1);
        }
      }
    }
    return false;
  }

  void breakPatterns(int64_t a, int64_t b) {
    const int64_t length = b - a;
    if (length < 8) {
      return;
    }
    auto random = static_cast<uint64_t>(length);
    const uint64_t modulus = uint64_t{1} << std::bit_width(static_cast<uint64_t>(length));
    for (int64_t k = a + (length / 4) * 2 - 1; k <= a + (length / 4) * 2 + 1; ++k) {
      random ^= random << 13;
      random ^= random >> 7;
      random ^= random << 17;
      auto other = static_cast<int64_t>(random & (modulus - 1));
      if (other >= length) {
        other -= length;
      }
      swap(k, a + other);
    }
  }

  std::pair<int64_t, Hint> choosePivot(int64_t a, int64_t b) {
    constexpr int64_t kShortestNinther = 50;
    constexpr int kMaxSwaps = 4 * 3;
    const int64_t l = b - a;
    int swaps = 0;
    int64_t i = a + l / 4 * 1;
    int64_t j = a + l / 4 * 2;
    int64_t k = a + l / 4 * 3;
    if (l >= 8) {
      if (l >= kShortestNinther) {
        i = median(i - 1, i, i + 1, swaps);
        j = median(j - 1, j, j + 1, swaps);
        k = median(k - 1, k, k + 1, swaps);
      }
      j = median(i, j, k, swaps);
    }
    if (swaps == 0) {
      return {j, Hint::kIncreasing};
    }
    if (swaps == kMaxSwaps) {
      return {j, Hint::kDecreasing};
    }
    return {j, Hint::kUnknown};
  }

  void order2(int64_t& a, int64_t& b, int& swaps) const {
    if (lt(b, a)) {
      ++swaps;
      std::swap(a, b);
    }
  }

  int64_t median(int64_t a, int64_t b, int64_t c, int& swaps) const {
    order2(a, b, swaps);
    order2(b, c, swaps);
    order2(a, b, swaps);
    return b;
  }

  void reverseRange(int64_t a, int64_t b) {
    for (int64_t i = a, j = b - 1; i < j; ++i, --j) {
      swap(i, j);
    }
  }

  std::vector<T>& data_;
  const Less& less_;
};

}  // namespace gosort_detail

template <typename T, typename Less>
void goSortSlice(std::vector<T>& data, const Less& less) {
  gosort_detail::Sorter<T, Less>(data, less).run();
}

}  // namespace koord::manager::descheduler::framework
