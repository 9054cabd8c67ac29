#include "catalog/gpu_match.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "core/i18n.hpp"
#include "core/text.hpp"

namespace gpuscout::catalog {

// NVIDIA's MIG user guide ("Supported GPUs", the profile tables): 7 GPCs on the GA100/GH100/GB100 cards, 4 on an A30.
int mig_card_slices(const GpuSpec& spec) { return spec.name == "A30" ? 4 : 7; }

namespace {

using Words = std::vector<std::string>;

bool is_digits(std::string_view w) {
  return !w.empty() && std::all_of(w.begin(), w.end(), [](char c) { return c >= '0' && c <= '9'; });
}
bool is_memory_word(std::string_view w) { return w.size() > 2 && w.ends_with("gb") && is_digits(w.substr(0, w.size() - 2)); }
bool has_digit(std::string_view w) {
  return std::any_of(w.begin(), w.end(), [](char c) { return c >= '0' && c <= '9'; });
}
// Product-line words that drivers print for some cards and users leave out ("Tesla T4" = "T4").
bool is_brand(std::string_view w) {
  return w == "geforce" || w == "tesla" || w == "radeon" || w == "quadro" || w == "instinct";
}

Words words_of(std::string_view name) {
  std::string s = text::to_lower(text::trim(name));
  for (std::string_view mark : {"(r)", "(tm)", "\u00ae", "\u2122"})
    for (size_t at = s.find(mark); at != std::string::npos; at = s.find(mark, at)) s.replace(at, mark.size(), " ");
  for (char& c : s)
    if (c == '-' || c == '_' || c == '/' || c == ',') c = ' ';
  Words out;
  for (auto w : text::split_ws(s)) {
    if (w == "gb" && !out.empty() && is_digits(out.back())) {  // "80 GB" is "80GB"
      out.back() += "gb";
      continue;
    }
    out.emplace_back(w == "mobile" ? "laptop" : w);
  }
  // Vendor words lead ("NVIDIA ...", "Intel(R) Arc(TM) ..."); "GPU"/"Graphics" trail ("... Laptop GPU").
  while (!out.empty() && (out.front() == "nvidia" || out.front() == "amd" || out.front() == "intel"))
    out.erase(out.begin());
  while (!out.empty() && (out.back() == "gpu" || out.back() == "graphics")) out.pop_back();
  return out;
}

// A MIG profile as NVML and nvidia-smi name it: "1g.18gb", "1g.10gb+me", "1c.2g.20gb" (a compute instance).
std::optional<uint64_t> profile_memory_bytes(std::string_view profile) {
  if (profile.ends_with("+me")) profile.remove_suffix(3);
  const auto parts = text::split(profile, '.');
  if (parts.size() < 2 || !is_memory_word(parts.back())) return std::nullopt;
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    const auto p = parts[i];
    if (p.size() < 2 || (p.back() != 'g' && p.back() != 'c') || !is_digits(p.substr(0, p.size() - 1)))
      return std::nullopt;
  }
  const auto gb = text::parse_uint(parts.back().substr(0, parts.back().size() - 2));
  if (!gb || *gb == 0 || *gb > (1ull << 20)) return std::nullopt;
  return *gb * 1'000'000'000ull;
}

// "3g.71gb" -> 3 compute slices; "1c.3g.71gb" -> 1 (the compute instance's own). nullopt when none is named.
std::optional<int> profile_compute_slices(std::string_view profile) {
  const auto parts = text::split(profile, '.');
  if (parts.size() < 2) return std::nullopt;
  const auto first = parts.front();
  const auto count = text::parse_uint(first.substr(0, first.size() - 1));
  if (!count || *count == 0 || *count > 8) return std::nullopt;
  return static_cast<int>(*count);
}

// The slice's share of compute and memory: the profile's slices over the card's. The memory share is counted in
// eighths of the card (the unit MIG allocates; profile names round it down: 18 GB of an H200's 141 GiB is 1/8).
void set_mig_share(GpuMatch& m) {
  if (!m.mig_profile || m.mig_profile->empty()) return;
  if (const auto slices = profile_compute_slices(*m.mig_profile))
    m.mig_compute_share = std::min(1.0, *slices / static_cast<double>(mig_card_slices(*m.spec)));
  if (m.mig_memory_bytes && m.spec->memory_bytes && *m.spec->memory_bytes > 0) {
    const double eighth = static_cast<double>(*m.spec->memory_bytes) / 8;
    const double eighths = std::ceil(static_cast<double>(*m.mig_memory_bytes) / eighth - 0.05);
    m.mig_memory_share = std::clamp(eighths, 1.0, 8.0) / 8;
  }
}

struct Parsed {
  Words words;  ///< the card's words, a MIG suffix removed
  std::optional<std::string> mig_profile;
  std::optional<uint64_t> mig_memory_bytes;
};

// "NVIDIA H200 MIG 1g.18gb" is a slice of an H200: match the card, remember the slice.
Parsed parse_name(std::string_view name) {
  Parsed p{words_of(name), std::nullopt, std::nullopt};
  const auto mig = std::find(p.words.begin(), p.words.end(), "mig");
  if (mig == p.words.end()) return p;
  p.mig_profile = "";
  if (mig + 1 != p.words.end()) {
    if (auto bytes = profile_memory_bytes(*(mig + 1))) {
      p.mig_profile = *(mig + 1);
      p.mig_memory_bytes = bytes;
    }
  }
  p.words.erase(mig, p.words.end());
  return p;
}

// Three ways to compare names, strictest first: all words; without product-line words; and, only to choose
// between variants by memory, without the memory word either ("rtx 4060 ti" for the 8 and 16 GB rows).
struct Key {
  std::string full, brandless, family;
  bool names_memory = false;
};

Key key_of(const Words& words) {
  Key k;
  Words brandless, family;
  for (const auto& w : words) {
    if (is_brand(w)) continue;
    brandless.push_back(w);
    if (is_memory_word(w)) k.names_memory = true;
    else family.push_back(w);
  }
  k.full = text::join(words, " ");
  k.brandless = text::join(brandless, " ");
  k.family = text::join(family, " ");
  return k;
}

struct Label {
  const GpuSpec* spec;
  GpuMatch::By by;
  Key key;
};

const std::vector<Label>& labels() {
  static const std::vector<Label> all = [] {
    std::vector<Label> out;
    for (const auto& g : gpus()) {
      out.push_back({&g, GpuMatch::By::name, key_of(words_of(g.name))});
      for (const auto& a : g.aliases) out.push_back({&g, GpuMatch::By::alias, key_of(words_of(a))});
    }
    return out;
  }();
  return all;
}

// Drivers report a little under the datasheet (ECC and driver reservations take up to about 7%: a T4 shows
// 15 of its 16 GiB); variants sold under one name differ by 17% or more (RTX 3080 10/12 GB).
bool memory_fits(uint64_t reported, const GpuSpec& g) {
  if (!g.memory_bytes || *g.memory_bytes == 0) return true;
  const double ratio = static_cast<double>(reported) / static_cast<double>(*g.memory_bytes);
  return ratio >= 0.85 && ratio <= 1.05;
}

struct Candidate {
  const GpuSpec* spec;
  GpuMatch::By by;
};

// One row out of the candidates, or none when memory rules them all out or cannot break a tie.
std::optional<Candidate> pick(std::vector<Candidate> c, std::optional<uint64_t> memory) {
  std::vector<Candidate> unique;
  for (const auto& x : c)
    if (std::none_of(unique.begin(), unique.end(), [&](const Candidate& u) { return u.spec == x.spec; }))
      unique.push_back(x);
  if (memory) std::erase_if(unique, [&](const Candidate& x) { return !memory_fits(*memory, *x.spec); });
  if (unique.size() <= 1) return unique.empty() ? std::nullopt : std::optional(unique.front());
  if (!memory) return std::nullopt;
  auto gap = [&](const Candidate& x) {
    return x.spec->memory_bytes ? std::abs(static_cast<double>(*x.spec->memory_bytes) - static_cast<double>(*memory))
                                : HUGE_VAL;
  };
  std::stable_sort(unique.begin(), unique.end(), [&](const auto& a, const auto& b) { return gap(a) < gap(b); });
  if (gap(unique[0]) == gap(unique[1])) return std::nullopt;  // same memory: nothing tells them apart
  return unique.front();
}

std::optional<Candidate> match_words(const Key& want, std::optional<uint64_t> memory) {
  std::vector<Candidate> c;
  auto collect = [&](std::string Key::*part) {
    if ((want.*part).empty()) return;
    for (const auto& l : labels())
      if (l.key.*part == want.*part) c.push_back({l.spec, l.by});
  };
  collect(&Key::full);
  if (c.empty()) collect(&Key::brandless);
  if (memory && !want.names_memory) collect(&Key::family);
  return pick(std::move(c), memory);
}

// Levenshtein distance for "did you mean".
size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

}  // namespace

bool names_mig_slice(std::string_view name) { return parse_name(name).mig_profile.has_value(); }

std::string normalise_name(std::string_view name) { return text::join(words_of(name), " "); }

std::optional<GpuMatch> match_gpu(const GpuQuery& q) {
  const Parsed p = parse_name(q.name);
  // A slice reports its own memory, which says nothing about which variant of the card it belongs to.
  std::optional<uint64_t> memory = q.memory_bytes;
  if (p.mig_profile || memory == 0u) memory.reset();
  std::optional<Candidate> found;
  if (q.pci_vendor_id && q.pci_device_id) {
    std::vector<Candidate> c;
    for (const auto& g : gpus())
      if (std::find(g.pci_ids.begin(), g.pci_ids.end(), std::pair(*q.pci_vendor_id, *q.pci_device_id)) != g.pci_ids.end())
        c.push_back({&g, GpuMatch::By::pci_id});
    found = pick(std::move(c), memory);
  }
  if (!found) found = match_words(key_of(p.words), memory);
  if (!found) return std::nullopt;
  GpuMatch m{found->spec, found->by, p.mig_profile, p.mig_memory_bytes};
  set_mig_share(m);
  return m;
}

std::vector<std::string> closest_gpu_names(std::string_view name, size_t count) {
  const Key want = key_of(parse_name(name).words);
  if (want.brandless.empty()) return {};
  Words models;  // "4090", "h200": a shared model number is the best hint, whatever the rest says
  for (auto w : text::split_ws(want.family))
    if (has_digit(w)) models.emplace_back(w);
  std::map<const GpuSpec*, size_t> best;
  for (const auto& l : labels()) {
    size_t d = edit_distance(want.brandless, l.key.brandless);
    for (auto w : text::split_ws(l.key.family))
      if (std::find(models.begin(), models.end(), w) != models.end()) d = 0;
    auto [it, added] = best.emplace(l.spec, d);
    if (!added) it->second = std::min(it->second, d);
  }
  const size_t limit = std::max<size_t>(2, want.brandless.size() / 3);
  std::vector<std::pair<size_t, const GpuSpec*>> scored;
  for (const auto& g : gpus())  // table order among equals
    if (best[&g] <= limit) scored.emplace_back(best[&g], &g);
  std::stable_sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> out;
  for (size_t i = 0; i < scored.size() && out.size() < count; ++i) out.push_back(scored[i].second->name);
  return out;
}

std::string did_you_mean(std::string_view name) {
  const auto close = closest_gpu_names(name);
  return close.empty() ? "" : trf(" (did you mean: {}?)", text::join(close, ", "));
}

}  // namespace gpuscout::catalog
