#include <iostream>

#include "extender/app/extender_app.hpp"

int main(int argc, char** argv) {
  return koord::extender::app::runExtender(argc, argv, std::cout, std::cerr);
}
