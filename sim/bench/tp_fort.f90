! tp_fort.f90 - a Fortran program for the bench's third-party section
! (sim/bench/thirdparty.sh): libgfortran's start, a matrix product and a
! loop nest with a data-dependent branch, an array intrinsic (sum),
! without PAPI.  Prints a checksum so that nothing is optimised away.
! The product is a loop nest, not the matmul intrinsic: libgfortran picks
! its matmul by the CPU's features, so under nbsim (a Pentium 4's CPUID)
! and under cachegrind (the host's: AVX-512) it would run other code.
program tp_fort
  implicit none
  integer, parameter :: n = 180
  real(kind=8), allocatable :: a(:, :), b(:, :), c(:, :)
  real(kind=8) :: s
  integer :: i, j, k, r

  allocate(a(n, n), b(n, n), c(n, n))
  do j = 1, n
     do i = 1, n
        a(i, j) = real(mod(i * j, 17), 8) / 16.0d0
        b(i, j) = real(mod(i + j, 13), 8) / 12.0d0
     end do
  end do
  s = 0
  do r = 1, 32
     c = 0
     do j = 1, n
        do k = 1, n
           do i = 1, n
              c(i, j) = c(i, j) + a(i, k) * b(k, j)
           end do
        end do
     end do
     do j = 1, n
        do i = 1, n
           if (c(i, j) > real(n, 8) / 4.0d0) then
              a(i, j) = c(i, j) / real(n, 8)
           else
              a(i, j) = c(i, j) / real(2 * n, 8) + 0.01d0
           end if
        end do
     end do
     s = s + sum(c)
  end do
  print '(es16.8)', s
end program tp_fort
