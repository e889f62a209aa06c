// L0: exception types of the engine.  The bindings translate them to Python's TypeError,
// ValueError and IndexError (the Array API's choice per kind of mistake), so no C++ exception
// ever reaches the interpreter as a crash.  Messages start with the function's name.
#pragma once

#include <stdexcept>
#include <string>

namespace arraycore::native {

struct TypeError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
struct ValueError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
struct IndexError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace arraycore::native
