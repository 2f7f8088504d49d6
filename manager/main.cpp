#include <iostream>

#include "manager/app/manager_app.hpp"

int main(int argc, char** argv) {
  return koord::manager::app::runManager(argc, argv, std::cout, std::cerr);
}
