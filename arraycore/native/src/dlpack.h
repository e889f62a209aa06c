// L0: the DLPack 1.x exchange ABI (https://dmlc.github.io/dlpack/latest/c_api.html).
//
// Our own declarations of the C structs producers and consumers share.  Only the memory
// layout matters (it is the ABI); names follow the spec so the code reads like it.  Nothing
// here depends on Python: the capsule handling lives in bindings/bind_dlpack.cpp.
#pragma once

#include <cstddef>
#include <cstdint>

namespace arraycore::native::dlpack {

// The newest version this library understands.  A producer's tensor with a larger major
// version must not be read (only its deleter may be called).
constexpr uint32_t kMajorVersion = 1;
constexpr uint32_t kMinorVersion = 1;

struct DLPackVersion {
  uint32_t major;
  uint32_t minor;
};

// Device types (int32 in the ABI).  Only the CPU is used by arraycore; the others are named
// for error messages.
enum DLDeviceType : int32_t {
  kDLCPU = 1,
  kDLCUDA = 2,
  kDLCUDAHost = 3,
  kDLOpenCL = 4,
  kDLVulkan = 7,
  kDLMetal = 8,
  kDLVPI = 9,
  kDLROCM = 10,
  kDLROCMHost = 11,
  kDLExtDev = 12,
  kDLCUDAManaged = 13,
  kDLOneAPI = 14,
  kDLWebGPU = 15,
  kDLHexagon = 16,
  kDLMAIA = 17,
};

struct DLDevice {
  DLDeviceType device_type;
  int32_t device_id;
};

// Type codes of DLDataType::code.
enum DLDataTypeCode : uint8_t {
  kDLInt = 0,
  kDLUInt = 1,
  kDLFloat = 2,
  kDLOpaqueHandle = 3,
  kDLBfloat = 4,
  kDLComplex = 5,
  kDLBool = 6,
  // 7..17: float8 / float6 / float4 variants (not supported by arraycore).
};

struct DLDataType {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
};

// A strided view; strides in elements, may be null (then C-contiguous, legacy producers).
struct DLTensor {
  void* data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t* shape;
  int64_t* strides;
  uint64_t byte_offset;
};

// Legacy (pre-1.0) managed tensor, capsule name "dltensor".
struct DLManagedTensor {
  DLTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(DLManagedTensor* self);
};

// Flag bits of DLManagedTensorVersioned::flags.
constexpr uint64_t kFlagReadOnly = uint64_t(1) << 0;
constexpr uint64_t kFlagIsCopied = uint64_t(1) << 1;
constexpr uint64_t kFlagIsSubbytePadded = uint64_t(1) << 2;

// DLPack >= 1.0 managed tensor, capsule name "dltensor_versioned".  Everything up to `flags`
// is stable across major versions, so the deleter can always be called.
struct DLManagedTensorVersioned {
  DLPackVersion version;
  void* manager_ctx;
  void (*deleter)(DLManagedTensorVersioned* self);
  uint64_t flags;
  DLTensor dl_tensor;
};

// Capsule names of the Python protocol.
inline constexpr const char* kCapsuleVersioned = "dltensor_versioned";
inline constexpr const char* kCapsuleLegacy = "dltensor";
inline constexpr const char* kCapsuleUsedVersioned = "used_dltensor_versioned";
inline constexpr const char* kCapsuleUsedLegacy = "used_dltensor";

// Layout checks (x86-64 / aarch64 LP64 ABI).
static_assert(sizeof(DLDevice) == 8);
static_assert(sizeof(DLDataType) == 4);
static_assert(sizeof(DLTensor) == 48);
static_assert(sizeof(DLManagedTensor) == 64);
static_assert(sizeof(DLManagedTensorVersioned) == 80);
static_assert(offsetof(DLManagedTensorVersioned, dl_tensor) == 32);

}  // namespace arraycore::native::dlpack
