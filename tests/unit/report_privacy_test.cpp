#include <algorithm>
#include <cstdlib>
#include <optional>

#include <gtest/gtest.h>

#include "inventory/json.hpp"
#include "report/privacy.hpp"
#include "test_support.hpp"
#include "scoped_env.hpp"

using namespace gpuscout;
using report::PrivacyContext;
using report::redact_text;

namespace {

PrivacyContext alice() {
  PrivacyContext ctx;
  ctx.home_dirs = {"/home/alice"};
  ctx.user_names = {"alice"};
  ctx.host_names = {"alice-laptop"};
  return ctx;
}

using gpuscout::test_support::ScopedEnv;

using gpuscout::test_support::contains;

Inventory private_machine() {
  Inventory inv;
  inv.gpuscout_version = "0.1.0";
  inv.hostname = "alice-laptop";
  inv.cpu.arch = "x86_64";
  inv.cpu.model = "Intel(R) Core(TM) i7-13700H";
  inv.memory.total_bytes = 16ULL << 30;
  inv.disks.push_back({"/", "/dev/nvme0n1p2", "ext4", 1000, 500, std::nullopt});
  inv.disks.push_back(
      {"/home/alice/data", "/dev/disk/by-id/nvme-Samsung_SSD_980_S5GXNF0R123456X-part1", "ext4", 10, 5, std::nullopt});
  inv.disks.push_back({"/mnt/nas", "nas.lan:/export/alice", "nfs4", 10, 5, std::nullopt});
  inv.disks.push_back({"/mnt/share", "//fileserver/team", "cifs", 10, 5, std::nullopt});
  inv.os.pretty_name = "Ubuntu 24.04.1 LTS";
  Gpu g;
  g.vendor = "nvidia";
  g.name = "NVIDIA GeForce RTX 4060 Laptop GPU";
  g.pci_bus_id = "0000:01:00.0";
  g.uuid = "GPU-5ad7fa3c-0f7d-6c1e-1b3e-1f2d3c4b5a69";
  g.memory_total_bytes = 8ULL << 30;
  g.memory_used_bytes = 3ULL << 30;
  g.compute_capability = "8.9";
  g.processes.push_back({4242, 3ULL << 30, "/home/alice/.venv/bin/python train.py"});
  inv.gpus.push_back(g);
  CudaDevice d;
  d.name = g.name;
  d.uuid = "GPU-5ad7fa3c-0f7d-6c1e-1b3e-1f2d3c4b5a69";
  d.pci_bus_id = g.pci_bus_id;
  inv.cuda.devices.push_back(d);
  inv.cuda.available = true;
  inv.cuda.device_count = 1;
  inv.nvidia.driver_version = "580.95.05";
  inv.nvidia.library_path = "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1";
  inv.toolkit.nvcc_path = "/home/alice/cuda-12.4/bin/nvcc";
  inv.python.probed = true;
  inv.python.executable = "/home/alice/miniconda3/envs/dl/bin/python";
  inv.python.version = "3.12.3";
  TorchInfo t;
  t.version = "2.5.1+cu121";
  t.cuda = "12.1";
  t.warnings.push_back("/home/alice/miniconda3/lib/python3.12/site-packages/torch/cuda/__init__.py:129: UserWarning");
  inv.torch = t;
  return inv;
}

}  // namespace

TEST(RedactText, HomeDirBecomesTilde) {
  EXPECT_EQ(redact_text("/home/alice/.venv/bin/python", alice()), "~/.venv/bin/python");
  EXPECT_EQ(redact_text("cd /home/alice", alice()), "cd ~");
  PrivacyContext odd;
  odd.home_dirs = {"/data/users/alice/"};  // a trailing slash is not eaten with the path's own
  EXPECT_EQ(redact_text("/data/users/alice/x and /data/users/alice2/x", odd), "~/x and /data/users/alice2/x");
}

TEST(RedactText, OtherUsersHomePaths) {
  const PrivacyContext none;
  EXPECT_EQ(redact_text("/home/bob/miniconda3/bin/python", none), "/home/<user>/miniconda3/bin/python");
  EXPECT_EQ(redact_text("mounted at /home/carol", none), "mounted at /home/<user>");
  EXPECT_EQ(redact_text("/Users/dave/venv and /mnt/c/Users/Erin/x", none),
            "/Users/<user>/venv and /mnt/c/Users/<user>/x");
  EXPECT_EQ(redact_text("C:\\Users\\张三\\AppData", none), "C:\\Users\\<user>\\AppData");
  EXPECT_EQ(redact_text("/run/media/frank/USB and /media/gina/DISK", none),
            "/run/media/<user>/USB and /media/<user>/DISK");
  EXPECT_EQ(redact_text("/media/cdrom", none), "/media/cdrom");  // no user part
  EXPECT_EQ(redact_text("/home/", none), "/home/");
}

TEST(RedactText, NamesOnlyAsWholeWords) {
  PrivacyContext ctx;
  ctx.user_names = {"ai"};
  EXPECT_EQ(redact_text("Nvidia train ai main-ai ai_x", ctx), "Nvidia train <user> main-<user> ai_x");
  EXPECT_EQ(redact_text("hello alice, alice-laptop.local", alice()), "hello <user>, <host>.local");
  EXPECT_EQ(redact_text("malice alices", alice()), "malice alices");
}

TEST(RedactText, Idempotent) {
  const std::string once = redact_text("/home/alice/x /home/bob/y alice-laptop", alice());
  EXPECT_EQ(redact_text(once, alice()), once);
  EXPECT_EQ(once, "~/x /home/<user>/y <host>");
}

TEST(RedactText, NonAsciiPassesThrough) {
  EXPECT_EQ(redact_text("七彩虹 iGame GeForce RTX 4090 alice", alice()), "七彩虹 iGame GeForce RTX 4090 <user>");
}

TEST(RedactJson, EveryStringValueNotKeys) {
  nlohmann::json doc = {{"alice", "alice"},
                        {"list", {"/home/alice/x", 3, nullptr, {{"deep", "on alice-laptop"}}}},
                        {"n", 1.5}};
  report::redact_json(doc, alice());
  EXPECT_EQ(doc["alice"], "<user>");
  EXPECT_EQ(doc["list"][0], "~/x");
  EXPECT_EQ(doc["list"][1], 3);
  EXPECT_TRUE(doc["list"][2].is_null());
  EXPECT_EQ(doc["list"][3]["deep"], "on <host>");
  EXPECT_EQ(doc["n"], 1.5);

  nlohmann::ordered_json ordered = {{"b", "alice"}, {"a", "x"}};
  report::redact_json(ordered, alice());
  EXPECT_EQ(ordered.dump(), R"({"b":"<user>","a":"x"})");
}

TEST(PrivacyContext, FromInventoryAlone) {
  Inventory inv;
  inv.hostname = "alice-laptop.corp.example.com";
  inv.python.executable = "/home/alice/.venv/bin/python";
  inv.toolkit.nvcc_path = "/home/ubuntu/cuda/bin/nvcc";
  const auto ctx = report::privacy_context(inv, false);
  EXPECT_EQ(ctx.host_names, (std::vector<std::string>{"alice-laptop.corp.example.com", "alice-laptop"}));
  EXPECT_EQ(ctx.user_names, std::vector<std::string>{"alice"});  // "ubuntu" names nobody
  EXPECT_TRUE(ctx.home_dirs.empty());
}

TEST(PrivacyContext, SkipsShortAndGenericNames) {
  Inventory inv;
  inv.hostname = "localhost";
  inv.python.executable = "/home/ai/x /home/root/y /home/jovyan/z";
  const auto ctx = report::privacy_context(inv, false);
  EXPECT_TRUE(ctx.host_names.empty());
  EXPECT_TRUE(ctx.user_names.empty());
}

TEST(PrivacyContext, ThisMachineReadsTheEnvironment) {
  const ScopedEnv home{{"HOME", "/home/testperson/"}};
  const ScopedEnv user{{"USER", "testperson"}};
  const ScopedEnv sudo_user{{"SUDO_USER", "otherperson"}};
  const auto ctx = report::privacy_context(Inventory{}, true);
  EXPECT_NE(std::ranges::find(ctx.home_dirs, "/home/testperson"), ctx.home_dirs.end());
  EXPECT_NE(std::ranges::find(ctx.user_names, "testperson"), ctx.user_names.end());
  EXPECT_NE(std::ranges::find(ctx.user_names, "otherperson"), ctx.user_names.end());
  for (const auto& dir : ctx.home_dirs) EXPECT_NE(dir, "/");
}

TEST(PrivacyContext, IgnoresTrivialHome) {
  for (const char* trivial : {"/", "/tmp", "relative/home"}) {
    const ScopedEnv home{{"HOME", trivial}};
    const auto ctx = report::privacy_context(Inventory{}, true);
    EXPECT_EQ(std::ranges::find(ctx.home_dirs, trivial), ctx.home_dirs.end()) << trivial;
  }
}

TEST(RedactInventory, DropsPrivateFactsKeepsTheRest) {
  const Inventory inv = private_machine();
  const Inventory r = report::redact_inventory(inv, report::privacy_context(inv, false));
  EXPECT_FALSE(r.hostname);
  ASSERT_EQ(r.gpus.size(), 1u);
  EXPECT_FALSE(r.gpus[0].uuid);
  EXPECT_TRUE(r.gpus[0].processes.empty());
  EXPECT_EQ(r.gpus[0].memory_used_bytes, 3ULL << 30);
  ASSERT_EQ(r.cuda.devices.size(), 1u);
  EXPECT_FALSE(r.cuda.devices[0].uuid);

  EXPECT_EQ(r.python.executable, "/home/<user>/miniconda3/envs/dl/bin/python");
  EXPECT_EQ(r.toolkit.nvcc_path, "/home/<user>/cuda-12.4/bin/nvcc");
  EXPECT_EQ(r.torch->warnings[0].find("alice"), std::string::npos);
  EXPECT_EQ(r.disks[1].mount, "/home/<user>/data");
  EXPECT_EQ(r.disks[1].device, "/dev/disk/by-id/<id>");
  EXPECT_EQ(r.disks[2].device, "<host>:/export/<user>");
  EXPECT_EQ(r.disks[3].device, "//<host>/team");

  // Everything else as it was.
  EXPECT_EQ(r.disks[0].device, "/dev/nvme0n1p2");
  EXPECT_EQ(r.gpus[0].name, inv.gpus[0].name);
  EXPECT_EQ(r.gpus[0].pci_bus_id, inv.gpus[0].pci_bus_id);
  EXPECT_EQ(r.gpus[0].memory_total_bytes, inv.gpus[0].memory_total_bytes);
  EXPECT_EQ(r.gpus[0].compute_capability, "8.9");
  EXPECT_EQ(r.cpu.model, inv.cpu.model);
  EXPECT_EQ(r.memory.total_bytes, inv.memory.total_bytes);
  EXPECT_EQ(r.nvidia.driver_version, "580.95.05");
  EXPECT_EQ(r.nvidia.library_path, inv.nvidia.library_path);
  EXPECT_EQ(r.torch->version, "2.5.1+cu121");
  EXPECT_EQ(r.os.pretty_name, inv.os.pretty_name);
  EXPECT_EQ(r.gpuscout_version, "0.1.0");

  const std::string all = inventory_to_json(r).dump();
  for (const char* secret : {"alice", "5ad7fa3c", "S5GXNF0R", "nas.lan", "fileserver", "4242", "train.py"})
    EXPECT_FALSE(contains(all, secret)) << secret;
}
