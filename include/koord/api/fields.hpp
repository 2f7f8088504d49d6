// One field list per model type: its fromJson and toJson both run over the same list, so the
// JSON names, the members and the order cannot disagree between decode and encode.
//
// Declaring a list (in the model's .cpp, after the struct is complete):
//
//   constexpr auto kTaintFields = std::tuple{
//       field("key", &Taint::key).always(),
//       field("value", &Taint::value),
//       field("effect", &Taint::effect).always(),
//       field("timeAdded", &Taint::timeAdded),
//   };
//   Status fromJson(const Json& j, Taint& out, const std::string& path) {
//     return decodeFields(j, out, path, kTaintFields);
//   }
//   Json toJson(const Taint& v) { return encodeFields(v, kTaintFields); }
//
// Each entry is field("<json key>", &T::member) plus at most one write modifier and any of the
// others. The list order is the decode order (the first error wins, as with ObjectDecoder); the
// encode order does not matter (Json objects keep their keys sorted).
//
// Decoding (ObjectDecoder semantics, unchanged): an absent or null key leaves the member as it is;
// errors read "<path>.<key>: ..." with the Kubernetes field path.
//   .required()        an absent or null key fails "<path>.<key>: required"
//   (ObjectDecoder::required). .decodeWith(fn)    decode a non-null value with `Status fn(const
//   Json&, M&, const std::string&
//                      path)` instead of fromJson (path is "<path>.<key>").
//   .encodeOnly()      never read: the key stays in `extra` on decode.
//
// Encoding: one write modifier per field; without one the field is omitempty.
//   (none)             omitempty: written unless its JSON is null, "", [] or {}
//   (ObjectEncoder::field).
//                      Note that 0 and false ARE written.
//   .always()          always written, even when null, "", 0, false, [] or {}
//   (ObjectEncoder::always). .omitZero()        Go omitempty for numbers and bools: written unless
//   the value == M{} (0, false). .ifSet()           a Go pointer: an optional / Box written
//   whenever set, even when its value
//                      encodes as "", {} or []; omitted when unset.
//   .nullIfEmpty()     always written, but an empty value (.empty(), or == M{}) is written as null:
//                      a non-pointer metav1.Time, or a Go slice / map that encoding/json writes as
//                      null when nil.
//   .decodeOnly()      never written (the key is still read).
//   .encodeWith(fn)    encode with `Json fn(const M&)` instead of toJson. The write modifier still
//                      applies: omitempty and .always() look at fn's JSON; .omitZero(), .ifSet()
//                      and .nullIfEmpty() look at the C++ value and then write fn's JSON.
//
// The generic functions:
//   decodeFields(j, out, path, list)  ObjectDecoder over the list; on success sets out.extra to the
//                                     keys the list did not read (when T has an `extra` member).
//                                     On an error out.extra is left alone and the other members may
//                                     be partly decoded: callers must not use `out` after an error.
//   encodeFields(v, list)             ObjectEncoder over the list, finished with v.extra (when T
//   has
//                                     an `extra` member; typed fields win a clash).
//   readFields(d, out, list)          only the reads, on a decoder of your own (an ObjectDecoder,
//   or
//                                     any decoder with the same field()/required() methods, such as
//                                     the extender's case-insensitive one); check d.status() after.
//   writeFields(e, v, list)           only the writes, on an ObjectEncoder of your own.
//
// What stays hand-written, AFTER the generic call and with a comment at that spot: rules that look
// at more than one field (validation that must run once every field decoded, a key written only
// when another field is empty), embedded (inlined) Go structs, and objects that are not a struct
// with fields at all (a list alias, a map). Use readFields/writeFields when the tail needs the
// decoder or encoder:
//
//   ObjectDecoder d(j, path);
//   readFields(d, out, kSpecFields);
//   KOORD_RETURN_IF_ERROR(d.status());
//   // Hand-written: checks that need every field decoded first.
//   KOORD_RETURN_IF_ERROR(checkSomething(out, path));
//   out.extra = d.rest();
//   return Status::ok();
//
// Converting a hand-written pair (each line of the old toJson maps to one modifier):
//   e.field("k", v.m)                      -> field("k", &T::m)
//   e.always("k", v.m)                     -> .always()
//   nonZero(e, "k", v.m), trueOnly(...)    -> .omitZero()
//   ifSet / ifPresent(e, "k", v.m),
//   if (v.m) e.always("k", *v.m)           -> .ifSet()
//   timeOrNull(e, "k", v.m),
//   e.always("k", empty ? null : v.m)      -> .nullIfEmpty()
//   d.required("k", out.m)                 -> .required()
//   a value mapped on the way out          -> .encodeWith(fn); fn receives the member itself (the
//                                             optional, for .ifSet()), e.g. null -> {}
// Keep the decode order of the old fromJson (it decides which error wins); enums
// (KOORD_API_ENUM_CODEC), quantities, Box<T>, optionals, vectors and maps need nothing special:
// they go through fromJson / toJson as before. A hand-written decode that ends with
// `out.extra = d.rest(); return d.status();` sets extra even on an error; decodeFields does not,
// which only differs for a caller that reads `out` after an error (none should).
//
// Adding a field to a model: add the member to the struct and one field(...) entry to its list.
#pragma once

#include <cstddef>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "koord/api/codec.hpp"

namespace koord::api {

// How a field is written; see the contract above.
enum class FieldWrite : unsigned char {
  kOmitEmpty,
  kAlways,
  kOmitZero,
  kIfSet,
  kNullIfEmpty,
  kNever,
};

// How a field is read; see the contract above.
enum class FieldRead : unsigned char {
  kOptional,
  kRequired,
  kNever,
};

// One entry of a field list: the JSON key, the member, how it is read and written, and the
// optional custom decoder / encoder (std::nullptr_t when the codec's fromJson / toJson are used).
// A literal type, so a list is a constexpr std::tuple of these. Built with field() and modifiers.
template <typename T, typename M, FieldWrite W = FieldWrite::kOmitEmpty,
          FieldRead R = FieldRead::kOptional, typename Dec = std::nullptr_t,
          typename Enc = std::nullptr_t>
struct Field {
  using Object = T;
  using Member = M;
  static constexpr FieldWrite kWrite = W;
  static constexpr FieldRead kRead = R;

  const char* name;
  M T::*member;
  Dec decode = nullptr;
  Enc encode = nullptr;

  constexpr auto always() const { return withWrite<FieldWrite::kAlways>(); }
  constexpr auto omitZero() const { return withWrite<FieldWrite::kOmitZero>(); }
  constexpr auto ifSet() const { return withWrite<FieldWrite::kIfSet>(); }
  constexpr auto nullIfEmpty() const { return withWrite<FieldWrite::kNullIfEmpty>(); }
  constexpr auto decodeOnly() const { return withWrite<FieldWrite::kNever>(); }

  constexpr auto required() const {
    static_assert(R == FieldRead::kOptional, "required() and encodeOnly() are exclusive");
    return Field<T, M, W, FieldRead::kRequired, Dec, Enc>{name, member, decode, encode};
  }
  constexpr auto encodeOnly() const {
    static_assert(R == FieldRead::kOptional, "required() and encodeOnly() are exclusive");
    return Field<T, M, W, FieldRead::kNever, Dec, Enc>{name, member, decode, encode};
  }

  using DecodeFn = Status (*)(const Json&, M&, const std::string&);
  using EncodeFn = Json (*)(const M&);
  constexpr auto decodeWith(DecodeFn fn) const {
    return Field<T, M, W, R, DecodeFn, Enc>{name, member, fn, encode};
  }
  constexpr auto encodeWith(EncodeFn fn) const {
    return Field<T, M, W, R, Dec, EncodeFn>{name, member, decode, fn};
  }

 private:
  template <FieldWrite NewW>
  constexpr auto withWrite() const {
    static_assert(W == FieldWrite::kOmitEmpty, "a field takes at most one write modifier");
    return Field<T, M, NewW, R, Dec, Enc>{name, member, decode, encode};
  }
};

// field("jsonKey", &T::member): read when present, written omitempty.
template <typename T, typename M>
constexpr Field<T, M> field(const char* name, M T::*member) {
  return Field<T, M>{name, member};
}

namespace fields_internal {

// True for an empty container / string / Json, or a value equal to its default (0, false).
template <typename M>
bool isZeroValue(const M& m) {
  if constexpr (requires { m.empty(); }) {
    return m.empty();
  } else {
    return m == M{};
  }
}

template <typename D, typename T, typename F>
void readOne(D& d, T& out, const F& f) {
  if constexpr (F::kRead != FieldRead::kNever) {
    auto& member = out.*(f.member);
    if constexpr (std::is_null_pointer_v<decltype(f.decode)>) {
      if constexpr (F::kRead == FieldRead::kRequired) {
        d.required(f.name, member);
      } else {
        d.field(f.name, member);
      }
    } else {
      if constexpr (F::kRead == FieldRead::kRequired) {
        d.required(f.name, member, f.decode);
      } else {
        d.field(f.name, member, f.decode);
      }
    }
  }
}

// The JSON of `m` for writing: f.encode(m) when set, else `value` itself (the encoder calls
// toJson).
template <typename F, typename M, typename V>
void put(ObjectEncoder& e, const F& f, const M& m, const V& value, bool always) {
  if constexpr (std::is_null_pointer_v<decltype(f.encode)>) {
    always ? (void)e.always(f.name, value) : (void)e.field(f.name, value);
  } else {
    const Json j = f.encode(m);
    always ? (void)e.always(f.name, j) : (void)e.field(f.name, j);
  }
}

template <typename T, typename F>
void writeOne(ObjectEncoder& e, const T& v, const F& f) {
  const auto& m = v.*(f.member);
  if constexpr (F::kWrite == FieldWrite::kOmitEmpty) {
    put(e, f, m, m, false);
  } else if constexpr (F::kWrite == FieldWrite::kAlways) {
    put(e, f, m, m, true);
  } else if constexpr (F::kWrite == FieldWrite::kOmitZero) {
    if (!(m == typename F::Member{})) {
      put(e, f, m, m, true);
    }
  } else if constexpr (F::kWrite == FieldWrite::kIfSet) {
    if (m) {
      put(e, f, m, *m, true);
    }
  } else if constexpr (F::kWrite == FieldWrite::kNullIfEmpty) {
    if (isZeroValue(m)) {
      e.always(f.name, Json(nullptr));
    } else {
      put(e, f, m, m, true);
    }
  }
}

}  // namespace fields_internal

// Runs d.field / d.required for every entry of `fields`, in order. `D` is an ObjectDecoder or a
// decoder with the same methods. Check d.status() afterwards.
template <typename D, typename T, typename... F>
void readFields(D& d, T& out, const std::tuple<F...>& fields) {
  static_assert((std::is_same_v<typename F::Object, T> && ...), "a field of another type");
  std::apply([&](const F&... f) { (fields_internal::readOne(d, out, f), ...); }, fields);
}

// Writes every entry of `fields` of `v` into `e`.
template <typename T, typename... F>
void writeFields(ObjectEncoder& e, const T& v, const std::tuple<F...>& fields) {
  static_assert((std::is_same_v<typename F::Object, T> && ...), "a field of another type");
  std::apply([&](const F&... f) { (fields_internal::writeOne(e, v, f), ...); }, fields);
}

// fromJson from a field list: see the contract at the top.
template <typename T, typename... F>
Status decodeFields(const Json& j, T& out, const std::string& path,
                    const std::tuple<F...>& fields) {
  ObjectDecoder d(j, path);
  readFields(d, out, fields);
  KOORD_RETURN_IF_ERROR(d.status());
  if constexpr (requires { out.extra; }) {
    out.extra = d.rest();
  }
  return Status::ok();
}

// toJson from a field list: see the contract at the top.
template <typename T, typename... F>
Json encodeFields(const T& v, const std::tuple<F...>& fields) {
  ObjectEncoder e;
  writeFields(e, v, fields);
  if constexpr (requires { v.extra; }) {
    return e.finish(v.extra);
  } else {
    return e.finish();
  }
}

}  // namespace koord::api
