// fake_smoke: loads libnvidia-ml.so.1 and libcuda.so.1 by soname (as gpuscout does; nvml.dll and nvcuda.dll on
// Windows) and prints what they report as key=value lines; `fake_smoke selftest SCENARIO_DIR` runs itself once
// per scenario/environment and checks the lines. Needs LD_LIBRARY_PATH to point at the fakes; on Windows (and
// Wine) GPUSCOUT_FAKE_LIB_DIR names their folder instead, since a bare DLL name is not searched for on a path.
#include "vendor/cuda_abi.hpp"
#include "vendor/nvml_abi.hpp"

#ifdef _WIN32
#include <windows.h>
#else
#include <dlfcn.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cuda = gpuscout::vendor::cuda;
namespace nvml = gpuscout::vendor::nvml;

namespace {

#ifdef _WIN32
constexpr const char* kNvmlName = "nvml.dll";
constexpr const char* kCudaName = "nvcuda.dll";

void* open_library(const char* name) {
    const char* dir = std::getenv("GPUSCOUT_FAKE_LIB_DIR");
    const std::string path = dir != nullptr && *dir != '\0' ? std::string(dir) + "\\" + name : name;
    return reinterpret_cast<void*>(LoadLibraryA(path.c_str()));
}

void* symbol(void* lib, const char* name) {
    return reinterpret_cast<void*>(GetProcAddress(reinterpret_cast<HMODULE>(lib), name));
}
#else
constexpr const char* kNvmlName = "libnvidia-ml.so.1";
constexpr const char* kCudaName = "libcuda.so.1";

void* open_library(const char* name) { return dlopen(name, RTLD_NOW | RTLD_LOCAL); }
void* symbol(void* lib, const char* name) { return dlsym(lib, name); }
#endif

template <class F>
F* sym(void* lib, const char* name) {
    return lib == nullptr ? nullptr : reinterpret_cast<F*>(symbol(lib, name));
}

void line(const std::string& key, const std::string& value) { std::printf("%s=%s\n", key.c_str(), value.c_str()); }
std::string num(unsigned long long v) { return std::to_string(v); }
std::string err(int code) { return "err" + std::to_string(code); }

void show_nvml() {
    void* lib = open_library(kNvmlName);
    if (lib == nullptr) {
        line("nvml.lib", "missing");
        return;
    }
    std::string missing;
    for (const char* name : {"nvmlInit_v2", "nvmlInitWithFlags", "nvmlDeviceGetMemoryInfo_v2",
                             "nvmlDeviceGetComputeRunningProcesses_v3", "nvmlSystemGetCudaDriverVersion_v2",
                             "nvmlDeviceGetPciInfo_v3", "nvmlDeviceGetMemoryBusWidth"})
        if (symbol(lib, name) == nullptr) missing += std::string(missing.empty() ? "" : ",") + name;
    line("nvml.missing", missing);

    auto init = sym<nvml::Return()>(lib, "nvmlInit_v2");
    if (init == nullptr) init = sym<nvml::Return()>(lib, "nvmlInit");
    const auto t0 = std::chrono::steady_clock::now();
    const nvml::Return rc = init();
    line("nvml.init", num(static_cast<unsigned>(rc)));
    line("nvml.init_ms", num(static_cast<unsigned long long>(
                             std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0)
                                 .count())));
    const auto error_string = sym<const char*(nvml::Return)>(lib, "nvmlErrorString");
    line("nvml.init_text", error_string(rc));
    if (rc != nvml::SUCCESS) {
        auto count = sym<nvml::Return(unsigned*)>(lib, "nvmlDeviceGetCount_v2");
        unsigned n = 0;
        line("nvml.count_after_failed_init", err(count(&n)));
        return;
    }
    char text[96];
    if (sym<nvml::Return(char*, unsigned)>(lib, "nvmlSystemGetDriverVersion")(text, sizeof text) == nvml::SUCCESS)
        line("nvml.driver", text);
    if (sym<nvml::Return(char*, unsigned)>(lib, "nvmlSystemGetNVMLVersion")(text, sizeof text) == nvml::SUCCESS)
        line("nvml.version", text);
    line("nvml.driver_small_buffer", err(sym<nvml::Return(char*, unsigned)>(lib, "nvmlSystemGetDriverVersion")(text, 4)));
    int cuda_version = 0;
    if (sym<nvml::Return(int*)>(lib, "nvmlSystemGetCudaDriverVersion")(&cuda_version) == nvml::SUCCESS)
        line("nvml.cuda_version", num(static_cast<unsigned>(cuda_version)));
    unsigned count = 0;
    const nvml::Return crc = sym<nvml::Return(unsigned*)>(lib, "nvmlDeviceGetCount_v2")(&count);
    line("nvml.count", crc == nvml::SUCCESS ? num(count) : err(crc));

    using U = nvml::Return(nvml::Device, unsigned*);
    for (unsigned i = 0; i < count; ++i) {
        const std::string k = "nvml." + num(i) + ".";
        nvml::Device dev = nullptr;
        const auto hrc = sym<nvml::Return(unsigned, nvml::Device*)>(lib, "nvmlDeviceGetHandleByIndex_v2")(i, &dev);
        if (hrc != nvml::SUCCESS) {
            line(k + "handle", err(hrc));
            continue;
        }
        const auto text_of = [&](const char* fn, const char* key) {
            const auto r = sym<nvml::Return(nvml::Device, char*, unsigned)>(lib, fn)(dev, text, sizeof text);
            line(k + key, r == nvml::SUCCESS ? std::string(text) : err(r));
        };
        text_of("nvmlDeviceGetName", "name");
        text_of("nvmlDeviceGetUUID", "uuid");
        if (auto pci3 = sym<nvml::Return(nvml::Device, nvml::PciInfoV3*)>(lib, "nvmlDeviceGetPciInfo_v3")) {
            nvml::PciInfoV3 pci{};
            const auto r = pci3(dev, &pci);
            char ids[64];
            std::snprintf(ids, sizeof ids, "0x%08X/0x%08X", pci.pciDeviceId, pci.pciSubSystemId);
            line(k + "bus", r == nvml::SUCCESS ? std::string(pci.busId) : err(r));
            line(k + "bus_legacy", pci.busIdLegacy);
            line(k + "pci_ids", ids);
            nvml::Device again = nullptr;
            sym<nvml::Return(const char*, nvml::Device*)>(lib, "nvmlDeviceGetHandleByPciBusId_v2")(pci.busIdLegacy,
                                                                                                    &again);
            line(k + "by_bus_id_same", again == dev ? "yes" : "no");
        }
        nvml::PciInfoV1 pci1{};
        if (sym<nvml::Return(nvml::Device, nvml::PciInfoV1*)>(lib, "nvmlDeviceGetPciInfo")(dev, &pci1) == nvml::SUCCESS)
            line(k + "bus_v1", pci1.busId);
        nvml::Memory m1{};
        const auto r1 = sym<nvml::Return(nvml::Device, nvml::Memory*)>(lib, "nvmlDeviceGetMemoryInfo")(dev, &m1);
        line(k + "mem_v1", r1 == nvml::SUCCESS ? num(m1.total) + "/" + num(m1.free) + "/" + num(m1.used) : err(r1));
        if (auto v2 = sym<nvml::Return(nvml::Device, nvml::MemoryV2*)>(lib, "nvmlDeviceGetMemoryInfo_v2")) {
            nvml::MemoryV2 m2{};
            line(k + "mem_v2_unversioned", err(v2(dev, &m2)));
            m2.version = nvml::kMemoryV2Version;
            const auto r2 = v2(dev, &m2);
            line(k + "mem_v2", r2 == nvml::SUCCESS ? num(m2.total) + "/" + num(m2.reserved) + "/" + num(m2.free) + "/" +
                                                        num(m2.used)
                                                  : err(r2));
        }
        int major = 0, minor = 0;
        const auto ccr = sym<nvml::Return(nvml::Device, int*, int*)>(lib, "nvmlDeviceGetCudaComputeCapability")(
            dev, &major, &minor);
        if (auto dm = sym<nvml::Return(nvml::Device, nvml::DriverModel*, nvml::DriverModel*)>(
                lib, "nvmlDeviceGetDriverModel_v2")) {
            nvml::DriverModel current{}, pending{};
            const auto r = dm(dev, &current, &pending);
            line(k + "driver_model", r == nvml::SUCCESS ? num(static_cast<unsigned>(current)) + "/" +
                                                              num(static_cast<unsigned>(pending))
                                                        : err(r));
        }
        line(k + "cc", ccr == nvml::SUCCESS ? num(static_cast<unsigned>(major)) + "." + num(static_cast<unsigned>(minor))
                                           : err(ccr));
        const auto uint_of = [&](const char* fn, const char* key) {
            auto f = sym<U>(lib, fn);
            if (f == nullptr) return;
            unsigned v = 0;
            const auto r = f(dev, &v);
            line(k + key, r == nvml::SUCCESS ? num(v) : err(r));
        };
        uint_of("nvmlDeviceGetPowerUsage", "power_mw");
        uint_of("nvmlDeviceGetEnforcedPowerLimit", "power_limit_mw");
        uint_of("nvmlDeviceGetCurrPcieLinkGeneration", "pcie_gen");
        uint_of("nvmlDeviceGetMaxPcieLinkWidth", "pcie_width_max");
        uint_of("nvmlDeviceGetMemoryBusWidth", "bus_width");
        unsigned temp = 0;
        const auto tr = sym<nvml::Return(nvml::Device, unsigned, unsigned*)>(
            lib, "nvmlDeviceGetTemperature")(dev, nvml::TEMPERATURE_GPU, &temp);
        line(k + "temp", tr == nvml::SUCCESS ? num(temp) : err(tr));
        unsigned mhz = 0;
        const auto clk = sym<nvml::Return(nvml::Device, unsigned, unsigned*)>(lib, "nvmlDeviceGetMaxClockInfo")(
            dev, nvml::CLOCK_SM, &mhz);
        line(k + "max_sm_mhz", clk == nvml::SUCCESS ? num(mhz) : err(clk));
        nvml::Utilization util{};
        const auto ur = sym<nvml::Return(nvml::Device, nvml::Utilization*)>(lib, "nvmlDeviceGetUtilizationRates")(dev, &util);
        line(k + "util", ur == nvml::SUCCESS ? num(util.gpu) + "/" + num(util.memory) : err(ur));
        unsigned long long reasons = 0;
        const auto thr = sym<nvml::Return(nvml::Device, unsigned long long*)>(
            lib, "nvmlDeviceGetCurrentClocksThrottleReasons")(dev, &reasons);
        line(k + "throttle", thr == nvml::SUCCESS ? num(reasons) : err(thr));

        // Process list: the two-call protocol (ask with 0, get INSUFFICIENT_SIZE and the count).
        using P3 = nvml::Return(nvml::Device, unsigned*, nvml::ProcessInfo*);
        using P1 = nvml::Return(nvml::Device, unsigned*, nvml::ProcessInfoV1*);
        std::string procs;
        unsigned n = 0;
        if (auto p3 = sym<P3>(lib, "nvmlDeviceGetComputeRunningProcesses_v3")) {
            const auto first = p3(dev, &n, nullptr);
            std::vector<nvml::ProcessInfo> infos(n);
            const auto second = n == 0 ? first : p3(dev, &n, infos.data());
            procs = "v3 first=" + num(static_cast<unsigned>(first)) + " second=" + num(static_cast<unsigned>(second));
            for (unsigned j = 0; j < n && second == nvml::SUCCESS; ++j) {
                char name[64] = "?";
                sym<nvml::Return(unsigned, char*, unsigned)>(lib, "nvmlSystemGetProcessName")(infos[j].pid, name,
                                                                                              sizeof name);
                procs += " " + num(infos[j].pid) + ":" + num(infos[j].usedGpuMemory) + ":" + name + ":" +
                         num(infos[j].gpuInstanceId);
            }
        } else {
            auto p1 = sym<P1>(lib, "nvmlDeviceGetComputeRunningProcesses");
            const auto first = p1(dev, &n, nullptr);
            std::vector<nvml::ProcessInfoV1> infos(n);
            const auto second = n == 0 ? first : p1(dev, &n, infos.data());
            procs = "v1 first=" + num(static_cast<unsigned>(first)) + " second=" + num(static_cast<unsigned>(second));
            for (unsigned j = 0; j < n && second == nvml::SUCCESS; ++j)
                procs += " " + num(infos[j].pid) + ":" + num(infos[j].usedGpuMemory);
        }
        line(k + "procs", procs);
    }
    line("nvml.shutdown", num(static_cast<unsigned>(sym<nvml::Return()>(lib, "nvmlShutdown")())));
    line("nvml.shutdown_again", num(static_cast<unsigned>(sym<nvml::Return()>(lib, "nvmlShutdown")())));
}

void show_cuda() {
    void* lib = open_library(kCudaName);
    if (lib == nullptr) {
        line("cuda.lib", "missing");
        return;
    }
    int version = 0;
    const auto vr = sym<cuda::Status(int*)>(lib, "cuDriverGetVersion")(&version);
    line("cuda.version", vr == cuda::SUCCESS ? num(static_cast<unsigned>(version)) : err(vr));
    int count = 0;
    line("cuda.count_before_init", err(sym<cuda::Status(int*)>(lib, "cuDeviceGetCount")(&count)));
    const auto t0 = std::chrono::steady_clock::now();
    const cuda::Status rc = sym<cuda::Status(unsigned)>(lib, "cuInit")(0);
    line("cuda.init", num(static_cast<unsigned>(rc)));
    line("cuda.init_ms", num(static_cast<unsigned long long>(
                             std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0)
                                 .count())));
    const char* name = nullptr;
    sym<cuda::Status(cuda::Status, const char**)>(lib, "cuGetErrorName")(rc, &name);
    line("cuda.init_name", name == nullptr ? "(null)" : name);
    if (rc != cuda::SUCCESS) return;
    sym<cuda::Status(int*)>(lib, "cuDeviceGetCount")(&count);
    line("cuda.count", num(static_cast<unsigned>(count)));
    auto attr = sym<cuda::Status(int*, int, cuda::Device)>(lib, "cuDeviceGetAttribute");
    for (int i = 0; i < count; ++i) {
        const std::string k = "cuda." + num(static_cast<unsigned>(i)) + ".";
        cuda::Device dev = -1;
        sym<cuda::Status(cuda::Device*, int)>(lib, "cuDeviceGet")(&dev, i);
        char text[128];
        sym<cuda::Status(char*, int, cuda::Device)>(lib, "cuDeviceGetName")(text, sizeof text, dev);
        line(k + "name", text);
        sym<cuda::Status(char*, int, cuda::Device)>(lib, "cuDeviceGetPCIBusId")(text, sizeof text, dev);
        line(k + "bus", text);
        const auto a = [&](int at) {
            int v = 0;
            const auto r = attr(&v, at, dev);
            return r == cuda::SUCCESS ? num(static_cast<unsigned>(v)) : err(r);
        };
        line(k + "cc", a(cuda::ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR) + "." + a(cuda::ATTRIBUTE_COMPUTE_CAPABILITY_MINOR));
        line(k + "sm", a(cuda::ATTRIBUTE_MULTIPROCESSOR_COUNT));
        line(k + "clock_khz", a(cuda::ATTRIBUTE_CLOCK_RATE));
        line(k + "l2", a(cuda::ATTRIBUTE_L2_CACHE_SIZE));
        line(k + "attr_9999", a(9999));
        std::size_t total = 0;
        sym<cuda::Status(std::size_t*, cuda::Device)>(lib, "cuDeviceTotalMem_v2")(&total, dev);
        line(k + "total", num(total));
        cuda::Uuid uuid{};
        sym<cuda::Status(cuda::Uuid*, cuda::Device)>(lib, "cuDeviceGetUuid_v2")(&uuid, dev);
        std::snprintf(text, sizeof text, "%02x%02x%02x%02x", static_cast<unsigned char>(uuid.bytes[0]),
                      static_cast<unsigned char>(uuid.bytes[1]), static_cast<unsigned char>(uuid.bytes[2]),
                      static_cast<unsigned char>(uuid.bytes[3]));
        line(k + "uuid_head", text);
        char luid[8] = {0};
        unsigned node_mask = 0;
        const auto lr = sym<cuda::Status(char*, unsigned*, cuda::Device)>(lib, "cuDeviceGetLuid")(luid, &node_mask, dev);
        std::snprintf(text, sizeof text, "%02x%02x%02x%02x:%02x%02x%02x%02x", static_cast<unsigned char>(luid[7]),
                      static_cast<unsigned char>(luid[6]), static_cast<unsigned char>(luid[5]),
                      static_cast<unsigned char>(luid[4]), static_cast<unsigned char>(luid[3]),
                      static_cast<unsigned char>(luid[2]), static_cast<unsigned char>(luid[1]),
                      static_cast<unsigned char>(luid[0]));
        line(k + "luid", lr == cuda::SUCCESS ? std::string(text) : err(lr));
        line(k + "tcc", a(cuda::ATTRIBUTE_TCC_DRIVER));
        std::size_t free_b = 0, total_b = 0;
        auto meminfo = sym<cuda::Status(std::size_t*, std::size_t*)>(lib, "cuMemGetInfo_v2");
        line(k + "meminfo_no_ctx", err(meminfo(&free_b, &total_b)));
        cuda::Context ctx = nullptr;
        sym<cuda::Status(cuda::Context*, cuda::Device)>(lib, "cuDevicePrimaryCtxRetain")(&ctx, dev);
        sym<cuda::Status(cuda::Context)>(lib, "cuCtxSetCurrent")(ctx);
        const auto mr = meminfo(&free_b, &total_b);
        line(k + "meminfo", mr == cuda::SUCCESS ? num(free_b) + "/" + num(total_b) : err(mr));
        sym<cuda::Status(cuda::Context)>(lib, "cuCtxSetCurrent")(nullptr);
        sym<cuda::Status(cuda::Device)>(lib, "cuDevicePrimaryCtxRelease_v2")(dev);
    }
}

// ---- selftest ---------------------------------------------------------------------------------

struct Child {
    std::string out;
    bool timed_out = false;
};

#ifdef _WIN32
// Runs this program's `show` with the given environment changes (value nullptr = unset): they are made in this
// process, inherited by the child, then undone. Its output goes to a temporary file, read once it has ended or
// been killed at the deadline (a pipe nobody drains could block a chatty child).
Child run_show(const std::vector<std::pair<std::string, const char*>>& env, int timeout_ms) {
    std::vector<std::pair<std::string, std::optional<std::string>>> saved;
    for (const auto& [k, v] : env) {
        char old[32768];
        const DWORD n = GetEnvironmentVariableA(k.c_str(), old, sizeof old);
        saved.emplace_back(k, n > 0 && n < sizeof old ? std::optional<std::string>(old) : std::nullopt);
        SetEnvironmentVariableA(k.c_str(), v);
    }
    char exe[MAX_PATH], dir[MAX_PATH], out_path[MAX_PATH];
    GetModuleFileNameA(nullptr, exe, sizeof exe);
    GetTempPathA(sizeof dir, dir);
    GetTempFileNameA(dir, "fks", 0, out_path);
    SECURITY_ATTRIBUTES inherit{sizeof(SECURITY_ATTRIBUTES), nullptr, TRUE};
    HANDLE out = CreateFileA(out_path, GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE, &inherit, CREATE_ALWAYS,
                             FILE_ATTRIBUTE_TEMPORARY, nullptr);
    STARTUPINFOA si{};
    si.cb = sizeof si;
    si.dwFlags = STARTF_USESTDHANDLES;
    si.hStdOutput = out;
    si.hStdError = GetStdHandle(STD_ERROR_HANDLE);
    si.hStdInput = GetStdHandle(STD_INPUT_HANDLE);
    std::string command = "\"" + std::string(exe) + "\" show";
    PROCESS_INFORMATION pi{};
    if (!CreateProcessA(exe, command.data(), nullptr, nullptr, TRUE, 0, nullptr, nullptr, &si, &pi)) std::abort();
    CloseHandle(out);
    Child c;
    if (WaitForSingleObject(pi.hProcess, static_cast<DWORD>(timeout_ms)) != WAIT_OBJECT_0) {
        c.timed_out = true;
        TerminateProcess(pi.hProcess, 1);
        WaitForSingleObject(pi.hProcess, INFINITE);
    }
    CloseHandle(pi.hThread);
    CloseHandle(pi.hProcess);
    if (FILE* f = std::fopen(out_path, "rb")) {
        char buf[4096];
        for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) c.out.append(buf, n);
        std::fclose(f);
    }
    DeleteFileA(out_path);
    for (const auto& [k, v] : saved) SetEnvironmentVariableA(k.c_str(), v ? v->c_str() : nullptr);
    // Text mode may have written CR LF: the checks compare whole lines.
    std::string lf;
    for (char ch : c.out)
        if (ch != '\r') lf += ch;
    c.out = std::move(lf);
    return c;
}
#else
// Runs `/proc/self/exe show` with the given environment changes (value nullptr = unset).
Child run_show(const std::vector<std::pair<std::string, const char*>>& env, int timeout_ms) {
    int fds[2];
    if (pipe(fds) != 0) std::abort();
    const pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], 1);
        close(fds[0]);
        close(fds[1]);
        for (const auto& [k, v] : env) {
            if (v == nullptr) unsetenv(k.c_str());
            else setenv(k.c_str(), v, 1);
        }
        execl("/proc/self/exe", "fake_smoke", "show", static_cast<char*>(nullptr));
        _exit(127);
    }
    close(fds[1]);
    Child c;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    char buf[4096];
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            c.timed_out = true;
            kill(pid, SIGKILL);
            break;
        }
        pollfd p{fds[0], POLLIN, 0};
        if (poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
        const auto n = read(fds[0], buf, sizeof buf);
        if (n <= 0) break;
        c.out.append(buf, static_cast<std::size_t>(n));
    }
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    return c;
}
#endif

int failures = 0;

void expect(const Child& c, const std::string& what, const std::string& kv) {
    if (c.out.find("\n" + kv + "\n") == std::string::npos && c.out.rfind(kv + "\n", 0) != 0) {
        std::printf("FAIL %s: expected line '%s'\n", what.c_str(), kv.c_str());
        ++failures;
    }
}

int selftest(const std::string& dir) {
    const char* old_dir = std::getenv("GPUSCOUT_FAKE_OLD_LIB_DIR");
    const auto sc = [&](const char* name) { return dir + "/" + name + ".json"; };
    using Env = std::vector<std::pair<std::string, const char*>>;
    const auto run = [&](const char* scenario, const Env& extra = {}, int timeout_ms = 20000) {
        const std::string path = scenario != nullptr ? sc(scenario) : "";
        Env env{{"CUDA_VISIBLE_DEVICES", nullptr},
                {"CUDA_DEVICE_ORDER", nullptr},
                {"GPUSCOUT_FAKE_SCENARIO", scenario != nullptr ? path.c_str() : nullptr}};
        env.insert(env.end(), extra.begin(), extra.end());  // applied in order: the caller's win
        return run_show(env, timeout_ms);
    };

    {
        const auto c = run(nullptr);
        expect(c, "no scenario", "nvml.init=0");
        expect(c, "no scenario", "nvml.count=0");
        expect(c, "no scenario", "cuda.init=100");
        expect(c, "no scenario", "nvml.missing=");
    }
    {
        const auto c = run("rtx4090");
        expect(c, "rtx4090", "nvml.driver=580.95.05");
        expect(c, "rtx4090", "nvml.cuda_version=13000");
        expect(c, "rtx4090", "nvml.driver_small_buffer=err7");
        expect(c, "rtx4090", "nvml.0.name=NVIDIA GeForce RTX 4090");
        expect(c, "rtx4090", "nvml.0.bus=00000000:01:00.0");
        expect(c, "rtx4090", "nvml.0.bus_legacy=0000:01:00.0");
        expect(c, "rtx4090", "nvml.0.bus_v1=0000:01:00.0");
        expect(c, "rtx4090", "nvml.0.by_bus_id_same=yes");
        expect(c, "rtx4090", "nvml.0.cc=8.9");
        expect(c, "rtx4090", "nvml.0.mem_v2_unversioned=err25");
        expect(c, "rtx4090", "nvml.0.mem_v1=25757220864/25217007616/540213248");
        expect(c, "rtx4090", "nvml.0.mem_v2=25757220864/455475200/25217007616/84738048");
        expect(c, "rtx4090", "nvml.shutdown=0");
        expect(c, "rtx4090", "nvml.shutdown_again=1");
        expect(c, "rtx4090", "cuda.version=13000");
        expect(c, "rtx4090", "cuda.count_before_init=err3");
        expect(c, "rtx4090", "cuda.init=0");
        expect(c, "rtx4090", "cuda.count=1");
        expect(c, "rtx4090", "cuda.0.bus=0000:01:00.0");
        expect(c, "rtx4090", "cuda.0.cc=8.9");
        expect(c, "rtx4090", "cuda.0.clock_khz=2520000");
        expect(c, "rtx4090", "cuda.0.attr_9999=err1");
        expect(c, "rtx4090", "cuda.0.meminfo_no_ctx=err201");
        expect(c, "rtx4090", "cuda.0.meminfo=25217007616/25757220864");
        expect(c, "rtx4090", "nvml.0.driver_model=err3");  // a Linux driver: no driver model, no LUID
        expect(c, "rtx4090", "cuda.0.luid=err801");
        expect(c, "rtx4090", "cuda.0.tcc=0");
    }
    {
        const auto c = run("win-laptop-4060");
        expect(c, "win-laptop-4060", "nvml.driver=581.57");
        expect(c, "win-laptop-4060", "nvml.0.name=NVIDIA GeForce RTX 4060 Laptop GPU");
        expect(c, "win-laptop-4060", "nvml.0.driver_model=0/0");
        expect(c, "win-laptop-4060", "cuda.0.luid=00000000:0001a2b3");
        expect(c, "win-laptop-4060", "cuda.0.tcc=0");
        expect(c, "win-laptop-4060", "cuda.0.bus=0000:01:00.0");
    }
    {
        const auto c = run("win-driver-mismatch");
        expect(c, "win-driver-mismatch", "nvml.init=18");
        expect(c, "win-driver-mismatch", "nvml.init_text=RM has detected an NVML/RM version mismatch.");
        expect(c, "win-driver-mismatch", "cuda.init=803");
    }
    {
        const auto c = run("two-mixed");
        expect(c, "two-mixed", "nvml.count=2");
        expect(c, "two-mixed", "nvml.0.name=NVIDIA GeForce RTX 3060");
        expect(c, "two-mixed", "nvml.1.name=NVIDIA GeForce RTX 3090");
        expect(c, "two-mixed", "cuda.0.name=NVIDIA GeForce RTX 3090");
        expect(c, "two-mixed", "cuda.1.name=NVIDIA GeForce RTX 3060");
        const auto pci = run("two-mixed", {{"CUDA_DEVICE_ORDER", "PCI_BUS_ID"}});
        expect(pci, "two-mixed PCI_BUS_ID", "cuda.0.name=NVIDIA GeForce RTX 3060");
        const auto one = run("two-mixed", {{"CUDA_VISIBLE_DEVICES", "1"}});
        expect(one, "two-mixed CVD=1", "cuda.count=1");
        expect(one, "two-mixed CVD=1", "cuda.0.name=NVIDIA GeForce RTX 3060");
        expect(one, "two-mixed CVD=1", "nvml.count=2");
        const auto stop = run("two-mixed", {{"CUDA_VISIBLE_DEVICES", "0,7,1"}});
        expect(stop, "two-mixed CVD=0,7,1", "cuda.count=1");
        const auto uuid = run("two-mixed", {{"CUDA_VISIBLE_DEVICES", "GPU-5f3a"}});
        expect(uuid, "two-mixed CVD=GPU-5f3a", "cuda.0.name=NVIDIA GeForce RTX 3060");
        const auto none = run("two-mixed", {{"CUDA_VISIBLE_DEVICES", ""}});
        expect(none, "two-mixed CVD=''", "cuda.init=100");
        const auto minus = run("two-mixed", {{"CUDA_VISIBLE_DEVICES", "-1"}});
        expect(minus, "two-mixed CVD=-1", "cuda.init=100");
    }
    {
        const auto c = run("nvml-errors");
        expect(c, "nvml-errors", "nvml.0.temp=err3");
        expect(c, "nvml-errors", "nvml.0.power_mw=err3");
        expect(c, "nvml-errors", "nvml.0.util=err999");
    }
    {
        const auto c = run("driver-not-loaded");
        expect(c, "driver-not-loaded", "nvml.init=9");
        expect(c, "driver-not-loaded", "nvml.init_text=Driver Not Loaded");
        expect(c, "driver-not-loaded", "nvml.count_after_failed_init=err1");
        expect(c, "driver-not-loaded", "cuda.init=100");
    }
    {
        const auto c = run("lib-mismatch");
        expect(c, "lib-mismatch", "nvml.init=18");
    }
    {
        const auto c = run("stub");
        expect(c, "stub", "cuda.init=34");
        expect(c, "stub", "cuda.init_name=cuda::ERROR_STUB_LIBRARY");
    }
    {
        const auto c = run("busy");
        expect(c, "busy", "nvml.0.procs=v3 first=7 second=0 4242:16106127360:python3:4294967295 "
                          "5151:5368709120:/usr/bin/ollama:4294967295");
    }
    {
        const auto c = run("hang", {}, 1500);
        if (!c.timed_out) {
            std::printf("FAIL hang: the child finished within 1.5 s\n");
            ++failures;
        }
    }
    if (old_dir != nullptr) {
        const auto c = run("rtx4090", {{"LD_LIBRARY_PATH", old_dir}, {"GPUSCOUT_FAKE_LIB_DIR", old_dir}});
        expect(c, "old driver", "nvml.missing=nvmlInit_v2,nvmlInitWithFlags,nvmlDeviceGetMemoryInfo_v2,"
                                "nvmlDeviceGetComputeRunningProcesses_v3,nvmlSystemGetCudaDriverVersion_v2,"
                                "nvmlDeviceGetPciInfo_v3,nvmlDeviceGetMemoryBusWidth");
        expect(c, "old driver", "nvml.init=0");
        expect(c, "old driver", "nvml.0.bus_v1=0000:01:00.0");
        expect(c, "old driver", "nvml.0.procs=v1 first=0 second=0");
        if (c.out.find("nvml.0.driver_model=") != std::string::npos) {  // the old library has no _v2 call
            std::printf("FAIL old driver: nvmlDeviceGetDriverModel_v2 is exported\n");
            ++failures;
        }
        expect(c, "old driver", "cuda.init=0");
    }
    std::printf("%s: %d failure(s)\n", failures == 0 ? "PASS" : "FAIL", failures);
    return failures == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "show";
    if (mode == "selftest" && argc > 2) return selftest(argv[2]);
    if (mode != "show") {
        std::fprintf(stderr, "usage: fake_smoke [show] | fake_smoke selftest SCENARIO_DIR\n");
        return 2;
    }
#ifdef _WIN32
    std::setvbuf(stdout, nullptr, _IONBF, 0);  // the CRT has no line buffering (_IOLBF is full buffering there)
#else
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
#endif
    show_nvml();
    show_cuda();
    return 0;
}
