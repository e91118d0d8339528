pragma circom 2.0.0;

// A witness that holds the field's edge values: 0, 1 and r - 1 (that is -1
// in Fr), including as results of multiplications, and an inverse hint.

template EdgeMain() {
        signal input zero;
        signal input one;
        signal input minusOne;
        signal input x;
        signal output y;

        // (-1) * (-1) = 1
        signal square;
        square <== minusOne * minusOne;
        square === one;

        // 0 * x = 0
        signal vanished;
        vanished <== zero * x;
        vanished === 0;

        // (-1) * 1 = -1
        signal negated;
        negated <== minusOne * one;
        negated + 1 === 0;

        // -1 is its own inverse: the hint is checked, not trusted.
        signal inverse;
        inverse <-- 1 / minusOne;
        inverse * minusOne === 1;

        // zero is zero: isZero = 1 - zero * (1 / zero or 0).
        signal zeroInverse;
        signal isZero;
        zeroInverse <-- zero != 0 ? 1 / zero : 0;
        isZero <== 1 - zero * zeroInverse;
        isZero * zero === 0;

        y <== negated * x + isZero + vanished;
}

component main {public [x]} = EdgeMain();
