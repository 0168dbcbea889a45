// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

/// A test double, not a stand-in for any real contract: it emits the log it is given (up to four topics and any
/// data) from wherever it is, so that a test can put at a real contract's address a log that no build of that contract
/// emits (an event of a known topic hash in a layout neither build has). The devnet never deploys it.
contract DevnetLogEmitter {
    error TooManyTopics(uint256 count);

    function emitLog(bytes32[] calldata topics, bytes calldata data) external {
        bytes memory d = data;
        uint256 n = topics.length;
        if (n > 4) revert TooManyTopics(n);
        assembly {
            let p := add(d, 32)
            let len := mload(d)
            switch n
            case 0 { log0(p, len) }
            case 1 { log1(p, len, calldataload(topics.offset)) }
            case 2 { log2(p, len, calldataload(topics.offset), calldataload(add(topics.offset, 32))) }
            case 3 {
                log3(
                    p,
                    len,
                    calldataload(topics.offset),
                    calldataload(add(topics.offset, 32)),
                    calldataload(add(topics.offset, 64))
                )
            }
            default {
                log4(
                    p,
                    len,
                    calldataload(topics.offset),
                    calldataload(add(topics.offset, 32)),
                    calldataload(add(topics.offset, 64)),
                    calldataload(add(topics.offset, 96))
                )
            }
        }
    }
}
