// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

/// Not a stand-in for any ENS contract: the other ERC-1155 contracts of a public chain (any NFT collection), whose
/// transfers share the registries' `TransferSingle`/`TransferBatch` signatures. The ENSv2 scenario sends many of
/// them in a few transactions, so a test can tell that the indexer neither fetches nor handles them.
contract DevnetERC1155Traffic {
    event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value);
    event TransferBatch(
        address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values
    );

    /// `singles` mints of ids `firstId…`, then `batches` batch mints of `idsPerBatch` ids each, all to `to`.
    function mintMany(address to, uint256 firstId, uint256 singles, uint256 batches, uint256 idsPerBatch) external {
        for (uint256 i; i < singles; ++i) {
            emit TransferSingle(msg.sender, address(0), to, firstId + i, 1);
        }
        uint256[] memory ids = new uint256[](idsPerBatch);
        uint256[] memory values = new uint256[](idsPerBatch);
        uint256 next = firstId + singles;
        for (uint256 b; b < batches; ++b) {
            for (uint256 k; k < idsPerBatch; ++k) {
                ids[k] = next++;
                values[k] = 1;
            }
            emit TransferBatch(msg.sender, address(0), to, ids, values);
        }
    }
}
