#pragma once

// Parsing JSON while leaving out members nobody reads.
//
// The API server sends every object with metadata.managedFields (server-side apply's record of
// who set which field): often a third of a Pod's bytes and, as a tree, many small maps. Nothing in
// koord reads it, so the informers' watch events and list pages, and the client's replies, are
// parsed with it left out instead of built and then erased.

#include <span>
#include <string_view>

#include "koord/api/codec.hpp"
#include "koord/common/result.hpp"

namespace koord::api {

// A member to leave out, as the keys from the document's root down to it. The segment "[]" stands
// for any element of an array: {"items", "[]", "metadata", "managedFields"} is the managedFields of
// every object of a list page.
using JsonPrunePath = std::span<const std::string_view>;

// Parses `text` like parseJson, except that the value of any member found at one of `prune`'s
// paths is checked for syntax but not built: the result has no such member. A path that does not
// match the document (a key absent, or an object where "[]" wants an array) prunes nothing.
// Malformed text gives the same error as parseJson, with its byte offset.
Result<Json> parseJsonPruned(std::string_view text, std::span<const JsonPrunePath> prune);

// metadata.managedFields of an object, and of every item of a list.
std::span<const JsonPrunePath> managedFieldsOfObjectOrList();
// object.metadata.managedFields of a watch event.
std::span<const JsonPrunePath> managedFieldsOfWatchEvent();

}  // namespace koord::api
