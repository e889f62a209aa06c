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

DType common_input_dtype(const Kernel& k, const std::vector<NdArray>& inputs) {
  if (static_cast<int>(inputs.size()) != k.arity)
    throw TypeError(k.name + ": expected " + std::to_string(k.arity) + " inputs, got " +
                    std::to_string(inputs.size()));
  DType dt = inputs[0].dtype;
  for (const auto& a : inputs)
    if (a.dtype != dt)
      throw TypeError(k.name + ": kernel inputs must share one dtype, got " +
                      dtype_name(dt) + " and " + dtype_name(a.dtype));
  if (!k.supports(dt))
    throw TypeError(k.name + ": not supported for dtype " + dtype_name(dt));
  return dt;
}

Shape broadcast_inputs(const Kernel& k, const std::vector<NdArray>& inputs) {
  if (inputs.size() == 1) return inputs[0].shape;
  if (inputs.size() == 2 && inputs[0].shape == inputs[1].shape) return inputs[0].shape;
  std::vector<Shape> shapes;
  for (const auto& a : inputs) shapes.push_back(a.shape);
  return broadcast_shapes(shapes, k.name.c_str());
}

}  // namespace

NdArray apply_kernel(const Kernel& k, const std::vector<NdArray>& inputs) {
  DType dt = common_input_dtype(k, inputs);
  Shape shape = broadcast_inputs(k, inputs);
  DType out_dt = static_cast<DType>(k.out_dtype[dtype_index(dt)]);
  // Output layout follows the first full-shape input (NumPy's order='K'), so elementwise ops
  // on transposed arrays stay contiguous walks.
  const NdArray* like = nullptr;
  for (const auto& a : inputs)
    if (a.shape == shape) { like = &a; break; }
  NdArray out = like ? empty_like_layout(*like, shape, out_dt) : empty(shape, out_dt);
  std::vector<NdArray> views;
  views.reserve(inputs.size());
  std::vector<const NdArray*> ops{&out};
  for (const auto& a : inputs) views.push_back(broadcast_to(a, shape, k.name.c_str()));
  for (const auto& v : views) ops.push_back(&v);
  run_elementwise(k.loops[dtype_index(dt)], ops, k.cost);
  return out;
}

void apply_kernel_into(const Kernel& k, const NdArray& out, const std::vector<NdArray>& inputs) {
  DType dt = common_input_dtype(k, inputs);
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
