#include "op_registry.h"

#include "errors.h"

namespace arraycore::native {

KernelRegistry& KernelRegistry::instance() {
  static KernelRegistry* r = new KernelRegistry();
  return *r;
}

Kernel& KernelRegistry::define(const std::string& name, int arity, double cost) {
  for (auto& k : kernels_)
    if (k->name == name) return *k;  // several files may add dtypes to one kernel
  kernels_.push_back(std::make_unique<Kernel>());
  Kernel& k = *kernels_.back();
  k.name = name;
  k.arity = arity;
  k.cost = cost;
  return k;
}

const Kernel* KernelRegistry::find(const std::string& name) const {
  for (auto& k : kernels_)
    if (k->name == name) return k.get();
  return nullptr;
}

std::vector<const Kernel*> KernelRegistry::all() const {
  std::vector<const Kernel*> out;
  for (auto& k : kernels_) out.push_back(k.get());
  return out;
}

namespace {

DType common_input_dtype(const Kernel& k, const NdArray* const* inputs, int n) {
  if (n != k.arity)
    throw TypeError(k.name + ": expected " + std::to_string(k.arity) + " inputs, got " +
                    std::to_string(n));
  DType dt = inputs[0]->dtype;
  for (int i = 1; i < n; ++i)
    if (inputs[i]->dtype != dt)
      throw TypeError(k.name + ": kernel inputs must share one dtype, got " +
                      dtype_name(dt) + " and " + dtype_name(inputs[i]->dtype));
  if (!k.supports(dt))
    throw TypeError(k.name + ": not supported for dtype " + dtype_name(dt));
  return dt;
}

Shape broadcast_inputs(const Kernel& k, const NdArray* const* inputs, int n) {
  bool same = true;
  for (int i = 1; i < n; ++i) same = same && inputs[i]->shape == inputs[0]->shape;
  if (same) return inputs[0]->shape;
  std::vector<Shape> shapes;
  for (int i = 0; i < n; ++i) shapes.push_back(inputs[i]->shape);
  return broadcast_shapes(shapes, k.name.c_str());
}

std::vector<const NdArray*> pointers(const std::vector<NdArray>& inputs) {
  std::vector<const NdArray*> p;
  for (const auto& a : inputs) p.push_back(&a);
  return p;
}

}  // namespace

NdArray apply_kernel(const Kernel& k, const std::vector<NdArray>& inputs) {
  auto p = pointers(inputs);
  return apply_kernel(k, p.data(), static_cast<int>(p.size()));
}

NdArray apply_kernel(const Kernel& k, const NdArray* const* inputs, int n) {
  DType dt = common_input_dtype(k, inputs, n);
  Shape shape = broadcast_inputs(k, inputs, n);
  DType out_dt = static_cast<DType>(k.out_dtype[dtype_index(dt)]);
  // Output layout follows the first full-shape input (NumPy's order='K'), so elementwise ops
  // on transposed arrays stay contiguous walks.
  const NdArray* like = nullptr;
  for (int i = 0; i < n && !like; ++i)
    if (inputs[i]->shape == shape) like = inputs[i];
  NdArray out = like ? empty_like_layout(*like, shape, out_dt) : empty(shape, out_dt);
  const NdArray* ops[4] = {&out, nullptr, nullptr, nullptr};
  NdArray views[3];  // broadcast views, only for inputs that need one
  for (int i = 0; i < n; ++i) {
    if (inputs[i]->shape == shape) {
      ops[i + 1] = inputs[i];
    } else {
      views[i] = broadcast_to(*inputs[i], shape, k.name.c_str());
      ops[i + 1] = &views[i];
    }
  }
  run_elementwise(k.loops[dtype_index(dt)], ops, n + 1, k.cost);
  return out;
}

void apply_kernel_into(const Kernel& k, const NdArray& out, const std::vector<NdArray>& inputs) {
  auto p = pointers(inputs);
  DType dt = common_input_dtype(k, p.data(), static_cast<int>(p.size()));
  DType out_dt = static_cast<DType>(k.out_dtype[dtype_index(dt)]);
  if (out.dtype != out_dt)
    throw TypeError(k.name + ": output dtype " + dtype_name(out.dtype) + " does not match " +
                    dtype_name(out_dt));
  if (!out.writeable()) throw ValueError(k.name + ": output array is read-only");
  std::vector<NdArray> views;
  views.reserve(inputs.size());
  for (const auto& a : inputs) {
    NdArray v = broadcast_to(a, out.shape, k.name.c_str());
    // An input that overlaps the output in any other way is read in full first (NumPy's
    // answer for a += a[::-1]).
    if (may_overlap_badly(out, v)) v = broadcast_to(astype(a, a.dtype), out.shape, k.name.c_str());
    views.push_back(std::move(v));
  }
  std::vector<const NdArray*> ops{&out};
  for (const auto& v : views) ops.push_back(&v);
  run_elementwise(k.loops[dtype_index(dt)], ops, k.cost);
}

}  // namespace arraycore::native
